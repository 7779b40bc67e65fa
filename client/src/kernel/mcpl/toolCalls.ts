/**
 * What MCPL adds to a tools/call of a server that speaks it. Two checks, which the pipeline runs as
 * stages before the approval question (pipeline/checks.ts), so that nobody approves a call MCPL
 * then refuses, and a refusal is audited as a block: the call is refused when its feature set is
 * switched off (§6.6); a scoped set's call may act on its scope only once the lists or the user
 * allow it (§7.7), and then carries it. And at the connection: a stateful set's call carries the
 * `state` and `checkpoint` the host holds (§8.4), and the answer's `state` becomes the next
 * checkpoint (§8.2, §8.3).
 *
 * Which set a tool belongs to, and which argument is its scope label, MCPL leaves to the host: a
 * tool names them in `_meta` (`"mcpl/featureSet"`, `"mcpl/scopeArgument"`); a server with one set
 * that uses `tools` has all its tools in it.
 */
import type { McplSettings } from '../config/types';
import type { ToolCallExtension } from '../connection/service';
import type { ListedTool } from '../connection/toolResults';
import type { ScopeQuestion } from '../host/interaction';
import { errorData } from '../mgp/mgpErrors';
import { KernelError, PERMISSION_DENIED } from '../domain/errors';
import type { ExtensionRefusal, ExtensionVerdict } from '../pipeline/types';
import { Checkpoints, parseStateAnswer } from './checkpoints';
import type { McplServer } from './mcplServer';
import type { McplAudit } from './mcplAudit';
import { FeatureSetDeclaration, isRecord, McplErrorCodes } from './protocol';
import { listsFor, ScopeAnswers } from './scopes';

export const META_FEATURE_SET = 'mcpl/featureSet';
export const META_SCOPE_ARGUMENT = 'mcpl/scopeArgument';

export interface ToolCallContext {
  server: McplServer;
  tool: ListedTool;
  args: Record<string, unknown>;
  settings: McplSettings | undefined;
  checkpoints: Checkpoints;
  scopes: ScopeAnswers;
  audit: McplAudit;
  ask(question: ScopeQuestion): Promise<boolean> | undefined;
  log(level: string, message: string): void;
}

function metaOf(tool: ListedTool): Record<string, unknown> {
  const meta = (tool as { _meta?: unknown })._meta;
  return isRecord(meta) ? meta : {};
}

/** The feature set a tool belongs to, when one can be told. */
export function toolFeatureSet(
  server: McplServer,
  tool: ListedTool,
): FeatureSetDeclaration | undefined {
  const named = metaOf(tool)[META_FEATURE_SET];
  if (typeof named === 'string') return server.table.get(named);
  const withTools = server.table.list().filter((set) => set.uses.includes('tools'));
  return withTools.length === 1 ? server.table.get(withTools[0].name) : undefined;
}

/** §6.6: a call to a tool whose feature set is switched off, refused at once. */
export function featureSetRefusal(
  server: McplServer,
  tool: ListedTool,
): { refusal: ExtensionRefusal } | undefined {
  const set = toolFeatureSet(server, tool);
  if (!set || server.table.isEnabled(set.name)) return undefined;
  return {
    refusal: {
      check: 'mcpl.feature_set',
      result: 'DISABLED',
      details: { feature_set: set.name },
      error: new KernelError(
        'PermissionDenied',
        `${server.id}.${tool.name} belongs to feature set "${set.name}", which is switched off (MCPL §6.6); switch it on in the Servers view`,
        McplErrorCodes.featureSetNotEnabled,
        { featureSet: set.name, canEnable: true },
      ),
    },
  };
}

/** §7.7: a scoped call's scope, decided by the lists or the user; undefined when it has none. */
export function scopeVerdict(context: ToolCallContext): Promise<ExtensionVerdict> | undefined {
  const { server, tool } = context;
  const set = toolFeatureSet(server, tool);
  const argument = metaOf(tool)[META_SCOPE_ARGUMENT];
  if (!set?.scoped || typeof argument !== 'string') return undefined;
  const label = context.args[argument];
  if (typeof label !== 'string' || !label) return undefined;
  return scoped(context, set, label, argument);
}

/** §8.4: the checkpoint a stateful set's call carries, and what its answer's state becomes. */
export function toolCallExtension(context: ToolCallContext): ToolCallExtension | undefined {
  const { server, tool } = context;
  const set = toolFeatureSet(server, tool);
  if (!set) return undefined;
  const params = context.checkpoints.requestFields(server.id, set.name);
  return { params, done: (result) => recordState(context, set.name, result) };
}

/** §7.6, §7.7: the lists, then the session's answer, then the user; the decision is audited. */
async function scoped(
  context: ToolCallContext,
  set: FeatureSetDeclaration,
  label: string,
  argument: string,
): Promise<ExtensionVerdict> {
  const payload = { [argument]: label };
  const decision = await context.scopes.decide(
    {
      serverId: context.server.id,
      featureSet: set.name,
      featureSetDescription: set.description,
      label,
      payload,
      origin: 'tool',
      toolName: context.tool.name,
    },
    listsFor(context.settings, set.name),
    context.ask,
  );
  context.audit.record('scope', {
    serverId: context.server.id,
    featureSet: set.name,
    outcome: decision.approved ? 'APPROVED' : 'DENIED',
    actor:
      decision.by === 'user'
        ? { type: 'operator', id: 'user' }
        : { type: 'kernel', id: 'mgp-kernel' },
    details: { label, tool: context.tool.name, decided_by: decision.by, reason: decision.reason },
  });
  if (decision.approved) return { params: { scope: { label, payload } } };
  const reason = decision.reason ?? 'denied';
  return {
    refusal: {
      check: 'mcpl.scope',
      result: 'DENIED',
      details: { feature_set: set.name, scope: label, decided_by: decision.by },
      error: new KernelError(
        'PermissionDenied',
        `${context.server.id}.${context.tool.name} may not act on "${label}": ${reason} (MCPL §7.7)`,
        PERMISSION_DENIED,
        errorData(PERMISSION_DENIED, { details: { reason, featureSet: set.name } }),
      ),
    },
  };
}

async function recordState(
  context: ToolCallContext,
  featureSet: string,
  result: Record<string, unknown>,
): Promise<void> {
  if (result.state === undefined) return;
  const answer = parseStateAnswer(result.state);
  const audit = (outcome: string, details: Record<string, unknown>) =>
    context.audit.record('state', {
      serverId: context.server.id,
      featureSet,
      outcome,
      details: { tool: context.tool.name, ...details },
    });
  if (typeof answer === 'string') {
    context.log(
      'warning',
      `MCPL: ${context.tool.name} answered a state the host cannot use: ${answer}`,
    );
    audit('REJECTED', { reason: answer });
    return;
  }
  const warning = await context.checkpoints
    .record(context.server.id, featureSet, answer, context.tool.name)
    .catch((error: unknown) => `the checkpoint was not saved: ${(error as Error).message}`);
  if (warning) context.log('warning', `MCPL: ${warning}`);
  audit('CHECKPOINT', {
    checkpoint: answer.checkpoint,
    parent: answer.parent,
    kind: answer.data !== undefined ? 'data' : answer.patch ? 'patch' : 'reference',
    ...(warning ? { warning } : {}),
  });
}
