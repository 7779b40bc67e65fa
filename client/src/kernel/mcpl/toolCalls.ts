/**
 * What MCPL adds to a tools/call of a server that speaks it: the call is refused when its feature
 * set is switched off (§6.6); a scoped set's call carries its `scope`, checked against the lists
 * (§7.7); a stateful set's call carries the `state` and `checkpoint` the host holds (§8.4), and the
 * answer's `state` becomes the next checkpoint (§8.2, §8.3).
 *
 * Which set a tool belongs to, and which argument is its scope label, MCPL leaves to the host: a
 * tool names them in `_meta` (`"mcpl/featureSet"`, `"mcpl/scopeArgument"`); a server with one set
 * that uses `tools` has all its tools in it.
 */
import type { McplSettings } from '../config/model';
import type { ToolCallExtension } from '../connection/service';
import type { ListedTool } from '../connection/toolResults';
import type { ScopeQuestion } from '../host/interaction';
import { KernelError } from '../model/errors';
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

export function toolCallExtension(
  context: ToolCallContext,
): ToolCallExtension | Promise<ToolCallExtension> | undefined {
  const { server, tool } = context;
  const set = toolFeatureSet(server, tool);
  if (!set) return undefined;
  if (!server.table.isEnabled(set.name))
    throw new KernelError(
      'PermissionDenied',
      `${server.id}.${tool.name} belongs to feature set "${set.name}", which is switched off (MCPL §6.6); switch it on in the Servers view`,
      McplErrorCodes.featureSetNotEnabled,
      { featureSet: set.name, canEnable: true },
    );
  const params = context.checkpoints.requestFields(server.id, set.name);
  const done = (result: Record<string, unknown>) => recordState(context, set.name, result);
  const argument = metaOf(tool)[META_SCOPE_ARGUMENT];
  if (!set.scoped || typeof argument !== 'string') return { params, done };
  const value = context.args[argument];
  if (typeof value !== 'string' || !value) return { params, done };
  return scoped(context, set, value).then((scope) => ({ params: { ...params, scope }, done }));
}

/** §7.7: the scope of a scoped call, once the lists or the user allow it; a refusal throws. */
async function scoped(
  context: ToolCallContext,
  set: FeatureSetDeclaration,
  label: string,
): Promise<{ label: string; payload: Record<string, unknown> }> {
  const argument = metaOf(context.tool)[META_SCOPE_ARGUMENT] as string;
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
  if (!decision.approved)
    throw new KernelError(
      'PermissionDenied',
      `${context.server.id}.${context.tool.name} may not act on "${label}": ${decision.reason ?? 'denied'} (MCPL §7.7)`,
    );
  return { label, payload };
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
