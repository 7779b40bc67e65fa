/**
 * Messages of the server detail page (one panel per server): what the host shows of the server, and
 * what the page asks back. Every text that came from the server (instructions, descriptions, version)
 * is its data, shown as text, never as HTML.
 */

export interface ServerDetailTool {
  /** The server's own name for it, as sent: what a switch names. */
  name: string;
  /** The name as shown, invisible characters made visible. */
  label: string;
  /** One line from the server's description (untrusted). */
  description?: string;
  risk: string;
  /** The user turned it off (switches): offered to no one. */
  off: boolean;
}

export interface ServerDetailPermission {
  name: string;
  /** approved / denied while in force; undefined while never decided. */
  decision?: 'approved' | 'denied';
  expiresAt?: string;
}

export interface ServerDetailFeatureSet {
  name: string;
  enabled: boolean;
  /** your switch / from config / off by default. */
  source: string;
}

export interface ServerDetailView {
  id: string;
  /** registered, connecting, connected, … or "turned off". */
  state: string;
  /** Why it does not run, in a few words (held back, last error). */
  stateNote?: string;
  transport: string;
  /** The command line or URL. */
  target: string;
  /** Where it is declared, `file:line`. */
  declaredIn: string;
  /** How its process runs, in words: sandboxed with what, or why not (stdio servers, once started). */
  isolation?: string;
  /** The server's name and version from initialize (untrusted), while connected. */
  serverInfo?: { name: string; version: string; title?: string };
  /**
   * The server's icon (MCP 2025-11-25 serverInfo.icons) for light and dark themes: `data:` URIs the
   * kernel made from image bytes it checked, never the server's own URIs.
   */
  icon?: { light: string; dark: string };
  protocolVersion?: string;
  /** The capability names the server declared at initialize (tools, resources, …, experimental.*). */
  capabilities: string[];
  /** MGP's version and the extensions both sides speak (MGP §2.4), undefined for plain MCP. */
  mgp?: { version: string; extensions: string[]; trustLevel?: string };
  /** MCPL's feature sets (MCPL §6), undefined for a server that does not speak MCPL. */
  featureSets?: ServerDetailFeatureSet[];
  permissions: ServerDetailPermission[];
  /** The server's instructions (untrusted text). */
  instructions?: string;
  tools: ServerDetailTool[];
  lastError?: string;
  /** Its last validation (MGP §17.8): the tier badge, when, how many checks failed; or one running. */
  validation?: { badge: string; at?: string; failed: number; running: boolean };
  /** The whole server is turned off by the user. */
  off: boolean;
  connected: boolean;
}

/** Host → webview. */
export type ServerDetailToWebview =
  | { type: 'detail'; detail: ServerDetailView }
  /** The server is no longer configured. */
  | { type: 'gone'; serverId: string };

export type ServerAction =
  'start' | 'stop' | 'restart' | 'showLog' | 'openConfig' | 'validate' | 'showValidation';

/** Webview → host. */
export type ServerDetailFromWebview =
  | { type: 'ready' }
  | { type: 'setTool'; toolName: string; enabled: boolean }
  | { type: 'setServer'; enabled: boolean }
  | { type: 'action'; action: ServerAction };

const ACTIONS: readonly string[] = [
  'start',
  'stop',
  'restart',
  'showLog',
  'openConfig',
  'validate',
  'showValidation',
];

export function isServerDetailFromWebview(value: unknown): value is ServerDetailFromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'ready':
      return true;
    case 'setTool':
      return typeof message.toolName === 'string' && typeof message.enabled === 'boolean';
    case 'setServer':
      return typeof message.enabled === 'boolean';
    case 'action':
      return typeof message.action === 'string' && ACTIONS.includes(message.action);
    default:
      return false;
  }
}
