/**
 * The `creating` status of `mgp.tools.request` (MGP §16.6): autonomous tool generation, off by
 * default. The kernel makes the decisions the six guardrails ask for; generating the code, validating
 * it (Code Safety Framework, §7), asking the operator and writing the audit log are callbacks.
 *
 * 1. Opt-in: without `enabled: true`, `creating` is never returned.
 * 2. Ephemeral: created tools are registered session-scoped and unregistered by `endSession()`; they
 *    never enter the tool index.
 * 3. Trust: a created tool always gets `trust_level: "experimental"`.
 * 4. Code safety: its code must pass validation at the `strict` level before registration.
 * 5. Approval: under `interactive` (the default) the operator approves it before registration; under
 *    `auto_approve` it is registered once validated.
 * 6. Audit: one `TOOL_CREATED_DYNAMIC` event per generated tool, with the generating agent, the code's
 *    SHA-256 and the validation result, whatever the outcome.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { AuditEventInput } from '../audit/auditEvent';
import type { JsonSchemaObject, RiskLevel } from './types';

export interface CreationRequest {
  creation_id: string;
  context: string;
  capabilities: string[];
  input_types: string[];
  output_types: string[];
  preferred_risk_level?: RiskLevel;
  task_trace_id?: string;
}

/** What the generating agent produces. */
export interface GeneratedTool {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
  code: string;
  language?: string;
}

export interface CodeValidation {
  passed: boolean;
  violations?: string[];
}

/** A created tool as registered: session-scoped and experimental, whatever asked for it. */
export interface EphemeralTool extends GeneratedTool {
  creation_id: string;
  ephemeral: true;
  trust_level: 'experimental';
  code_sha256: string;
}

export type CreationOutcome =
  | { creation_id: string; status: 'registered'; tool: EphemeralTool }
  | { creation_id: string; status: 'rejected' | 'denied' | 'failed'; reason: string };

export interface ToolCreationOptions {
  enabled: boolean;
  approvalPolicy?: 'interactive' | 'auto_approve';
  /** Id of the agent on whose behalf tools are generated (for the audit event). */
  agentId?: string;
  generate?: (request: CreationRequest) => Promise<GeneratedTool>;
  validate?: (
    code: string,
    level: 'strict',
    language?: string,
  ) => Promise<CodeValidation> | CodeValidation;
  approve?: (tool: GeneratedTool & { code_sha256: string }) => Promise<boolean>;
  register?: (tool: EphemeralTool) => void;
  unregister?: (name: string) => void;
  audit?: (event: AuditEventInput) => void;
  /** Told the outcome (the "follow-up response" of §16.6). */
  onSettled?: (outcome: CreationOutcome) => void;
}

/** Why creation cannot start, or undefined when every guardrail has what it needs. */
export function creationBlocker(options: ToolCreationOptions | undefined): string | undefined {
  if (options?.enabled !== true) return 'tool creation is not enabled';
  if (!options.generate || !options.validate || !options.register || !options.unregister)
    return 'tool creation needs generate, validate, register and unregister';
  if (!options.audit) return 'tool creation needs an audit sink';
  if ((options.approvalPolicy ?? 'interactive') === 'interactive' && !options.approve)
    return 'interactive approval policy needs an approver';
  return undefined;
}

/** Runs creations and remembers what it registered, to unregister it when the session ends. */
export class ToolCreator {
  private readonly registered = new Set<string>();

  constructor(private readonly options: ToolCreationOptions) {}

  get blocker(): string | undefined {
    return creationBlocker(this.options);
  }

  /** Starts a creation; the outcome goes to `onSettled` and the returned promise. */
  start(request: Omit<CreationRequest, 'creation_id'>): {
    creation_id: string;
    done: Promise<CreationOutcome>;
  } {
    const creation_id = randomUUID();
    const done = this.run({ ...request, creation_id }).then((outcome) => {
      this.options.onSettled?.(outcome);
      return outcome;
    });
    return { creation_id, done };
  }

  private async run(request: CreationRequest): Promise<CreationOutcome> {
    const o = this.options;
    const id = request.creation_id;
    if (this.blocker) return { creation_id: id, status: 'failed', reason: this.blocker };
    let generated: GeneratedTool;
    try {
      generated = await o.generate!(request);
    } catch (error) {
      return {
        creation_id: id,
        status: 'failed',
        reason: `generation failed: ${(error as Error).message}`,
      };
    }
    const code_sha256 = createHash('sha256').update(generated.code).digest('hex');
    const validation = await Promise.resolve(
      o.validate!(generated.code, 'strict', generated.language),
    ).catch((error: Error): CodeValidation => ({
      passed: false,
      violations: [`validator failed: ${error.message}`],
    }));
    const audit = (result: string, extra: Record<string, unknown> = {}) =>
      o.audit!({
        event_type: 'TOOL_CREATED_DYNAMIC',
        actor: { type: 'agent', id: o.agentId ?? 'unknown' },
        target: { server_id: 'mgp.ephemeral', tool_name: generated.name },
        result,
        ...(request.task_trace_id ? { trace_id: request.task_trace_id } : {}),
        details: {
          creation_id: id,
          code_sha256,
          safety_level: 'strict',
          validation,
          trust_level: 'experimental',
          ephemeral: true,
          ...extra,
        },
      });
    if (!validation.passed) {
      audit('BLOCKED');
      return {
        creation_id: id,
        status: 'rejected',
        reason: `code safety (strict): ${(validation.violations ?? []).join('; ') || 'failed'}`,
      };
    }
    if ((o.approvalPolicy ?? 'interactive') === 'interactive') {
      const approved = await o.approve!({ ...generated, code_sha256 }).catch(() => false);
      if (!approved) {
        audit('DENIED', { approval: 'denied' });
        return {
          creation_id: id,
          status: 'denied',
          reason: 'the operator did not approve the generated tool',
        };
      }
    }
    const tool: EphemeralTool = {
      ...generated,
      creation_id: id,
      ephemeral: true,
      trust_level: 'experimental',
      code_sha256,
    };
    o.register!(tool);
    this.registered.add(tool.name);
    audit('SUCCESS', { approval: o.approvalPolicy ?? 'interactive' });
    return { creation_id: id, status: 'registered', tool };
  }

  /** Unregisters every tool this session created (guardrail 2). */
  endSession(): string[] {
    const names = [...this.registered];
    for (const name of names) this.options.unregister?.(name);
    this.registered.clear();
    return names;
  }
}
