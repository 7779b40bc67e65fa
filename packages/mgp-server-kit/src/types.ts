/** The MGP vocabulary a server declares (MGP 0.5.2 §2.3, §3.2, §4.3). */

export const MGP_VERSION = '0.5.2';

export type RiskLevel = 'safe' | 'moderate' | 'dangerous';
export type TrustLevel = 'trusted' | 'standard' | 'sandboxed';
export type SideEffect = 'filesystem' | 'network' | 'process' | 'database' | 'notification';
export type Validator = 'sandbox' | 'readonly' | 'network_restricted' | 'code_safety' | 'none';

/** A tool's `security` object in tools/list (MGP §4.2–4.3). */
export interface ToolSecurity {
  risk_level: RiskLevel;
  permissions_required?: string[];
  side_effects?: SideEffect[];
  validator?: Validator;
  reversible?: boolean;
  confirmation_required?: boolean;
}

/** The extensions of MGP §2.2 a server may take part in. */
export type Extension =
  | 'security'
  | 'access_control'
  | 'audit'
  | 'code_safety'
  | 'lifecycle'
  | 'streaming'
  | 'bidirectional'
  | 'discovery'
  | 'tool_discovery'
  | 'error_handling';

/** The server states of MGP §11.2. */
export type LifecycleState =
  'registered' | 'connecting' | 'connected' | 'draining' | 'disconnected' | 'error' | 'restarting';

/** One audit event the kernel forwards (MGP §6.3). */
export interface AuditEvent {
  timestamp: string;
  trace_id?: string;
  event_type: string;
  actor?: { type: string; id: string };
  target?: { server_id?: string; tool_name?: string };
  result?: string;
  details?: Record<string, unknown>;
}
