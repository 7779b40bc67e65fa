/**
 * MCPL 0.4.1, where the server advertises it (`experimental.mcpl`, MCPL §5.1): feature sets and
 * their tagging (§6), scopes (§7), checkpoints and rollback (§8), push events (§9), context hooks
 * (§10), inference requests (§11) and channels (§14). What needs an action is done: hooks are
 * called, a rollback is asked for, a tool of a feature set is called to make it push or infer.
 */
import { randomUUID } from 'node:crypto';
import type { ListedTool } from '../../connection/toolResults';
import { parseServerMcpl, type ServerMcpl } from '../../mcpl/capabilities';
import { contentBlocks, isRecord, McplMethods } from '../../mcpl/protocol';
import {
  callableTools,
  callTool,
  type Check,
  type CheckContext,
  describeOutcome,
  exchangeOf,
  fail,
  missing,
  pass,
  request,
  shown,
  skipped,
  type Verdict,
} from '../context';
import type { Notice } from '../probe';

const NOT_MCPL = 'the server does not advertise experimental.mcpl';

function serverMcpl(context: CheckContext): ServerMcpl | undefined {
  return context.mgp ? parseServerMcpl(context.mgp.capabilities).mcpl : undefined;
}

function featureSetOf(tool: ListedTool): string | undefined {
  const meta = (tool as { _meta?: Record<string, unknown> })._meta;
  const set = meta?.['mcpl/featureSet'];
  return typeof set === 'string' ? set : undefined;
}

function requestsOf(context: CheckContext, method: string): Notice[] {
  return (context.mgp?.notices ?? []).filter((notice) => notice.method === method);
}

/** Calls callable tools of the feature sets that use `use` until the server sends `method`. */
async function provoke(
  context: CheckContext,
  mcpl: ServerMcpl,
  use: string,
  method: string,
): Promise<{ seen: Notice[]; left: string[] }> {
  let seen = requestsOf(context, method);
  if (seen.length) return { seen, left: [] };
  const sets = [...mcpl.featureSets.values()].filter((set) => set.uses.includes(use as never));
  const tools = (context.mgpTools ?? []).filter((tool) =>
    sets.some((set) => set.name === featureSetOf(tool)),
  );
  const { callable, left } = callableTools(context, tools);
  for (const { tool, args } of callable.slice(0, 3)) {
    await callTool(context.mgp!, tool, args, { timeoutMs: context.options.checkTimeoutMs });
    seen = requestsOf(context, method);
    if (seen.length) break;
  }
  return { seen, left };
}

const negotiation: Check = {
  id: 'mcpl.negotiation',
  tier: 'mcpl',
  title: 'MCPL capabilities',
  section: 'MCPL §5.1',
  async run(context) {
    if (!context.mgp) return missing(NOT_MCPL);
    const parsed = parseServerMcpl(context.mgp.capabilities);
    if (!parsed.mcpl && !parsed.problems.length) return missing(NOT_MCPL);
    if (parsed.problems.length)
      return fail({
        detail: 'experimental.mcpl does not follow MCPL §5.1 and §6.2',
        expected:
          'version "0.x", capability flags, feature sets each with a description and known uses',
        received: parsed.problems.slice(0, 4).join('; '),
      });
    const mcpl = parsed.mcpl!;
    const offers = [
      mcpl.pushEvents && 'push events',
      mcpl.beforeInference && 'beforeInference',
      mcpl.afterInference.enabled && 'afterInference',
      mcpl.inferenceRequest.enabled && 'inference requests',
      (mcpl.channels.register || mcpl.channels.publish) && 'channels',
    ].filter(Boolean);
    return pass(
      `MCPL ${mcpl.version}: ${mcpl.featureSets.size} feature sets; ${offers.join(', ') || 'no optional capabilities'}`,
    );
  },
};

const featureSets: Check = {
  id: 'mcpl.feature-sets',
  tier: 'mcpl',
  title: 'Feature sets and their tags',
  section: 'MCPL §6.1, §6.5',
  async run(context) {
    const mcpl = serverMcpl(context);
    if (!mcpl) return missing(NOT_MCPL);
    const declared = mcpl.featureSets;
    const problems: string[] = [];
    for (const tool of context.mgpTools ?? []) {
      const set = featureSetOf(tool);
      if (set !== undefined && !declared.has(set))
        problems.push(`tool ${tool.name} is tagged "${set}", which is not declared`);
    }
    for (const notice of context.mgp!.notices.filter((n) => n.request)) {
      if (!Object.values(McplMethods).includes(notice.method as never)) continue;
      const tag = notice.params.featureSet;
      const tagged = ![
        McplMethods.channelsRegister,
        McplMethods.channelsList,
        McplMethods.modelInfo,
      ].includes(notice.method as never);
      if (tagged && (typeof tag !== 'string' || !declared.has(tag)))
        problems.push(
          `${notice.method} carries featureSet ${shown(tag)}, not a declared one (MUST, §6.5)`,
        );
    }
    if (problems.length)
      return fail({
        detail: 'messages or tools name feature sets the server did not declare',
        expected: 'every server-initiated message tagged with a declared featureSet (§6.5)',
        received: problems.slice(0, 4).join('; '),
      });
    if (!declared.size) return missing('the server declares no feature sets');
    return pass(`${declared.size} declared, every tag names one of them`);
  },
};

const scopes: Check = {
  id: 'mcpl.scopes',
  tier: 'mcpl',
  title: 'Scoped access',
  section: 'MCPL §7.1, §7.4',
  async run(context) {
    const mcpl = serverMcpl(context);
    if (!mcpl) return missing(NOT_MCPL);
    const scoped = [...mcpl.featureSets.values()].filter((set) => set.scoped);
    if (!scoped.length) return missing('no feature set is scoped');
    const problems: string[] = [];
    for (const { params } of requestsOf(context, McplMethods.scopeElevate)) {
      const scope = params.scope;
      if (!isRecord(scope) || typeof scope.label !== 'string')
        problems.push(`scope/elevate scope ${shown(scope)} has no label`);
      if (!scoped.some((set) => set.name === params.featureSet))
        problems.push(`scope/elevate names ${shown(params.featureSet)}, not a scoped feature set`);
    }
    for (const tool of context.mgpTools ?? []) {
      const meta = (tool as { _meta?: Record<string, unknown> })._meta;
      const argument = meta?.['mcpl/scopeArgument'];
      const properties = (tool.inputSchema as { properties?: Record<string, unknown> })?.properties;
      if (argument !== undefined && (typeof argument !== 'string' || !properties?.[argument]))
        problems.push(`${tool.name}'s scope argument ${shown(argument)} is not one of its inputs`);
    }
    if (problems.length)
      return fail({
        detail: 'scopes are not asked for or named as §7 says',
        expected: 'scope/elevate { featureSet (a scoped set), scope: { label, payload } }',
        received: problems.slice(0, 4).join('; '),
      });
    return pass(`${scoped.map((set) => set.name).join(', ')} scoped`);
  },
};

const checkpoints: Check = {
  id: 'mcpl.checkpoints',
  tier: 'mcpl',
  title: 'Checkpoints and rollback',
  section: 'MCPL §8.2–8.7',
  async run(context): Promise<Verdict> {
    const mcpl = serverMcpl(context);
    if (!mcpl) return missing(NOT_MCPL);
    const sets = [...mcpl.featureSets.values()].filter((set) => set.rollback);
    if (!sets.length) return missing('no feature set declares rollback');
    const mgp = context.mgp!;
    const timeoutMs = context.options.checkTimeoutMs;
    const tools = (context.mgpTools ?? []).filter((tool) =>
      sets.some((set) => set.name === featureSetOf(tool)),
    );
    const { callable, left } = callableTools(context, tools);
    for (const { tool, args } of callable) {
      const first = await callTool(mgp, tool, args, { timeoutMs });
      const state =
        first.kind === 'result' ? (first.result as { state?: unknown }).state : undefined;
      if (!isRecord(state)) continue;
      if (typeof state.checkpoint !== 'string')
        return fail({
          detail: `${tool.name} answered a state without a checkpoint`,
          expected: 'state { checkpoint, parent, data | patch } (§8.2–8.3)',
          received: shown(state),
          exchange: exchangeOf(mgp, first.id),
        });
      const featureSet = featureSetOf(tool)!;
      const rolled = await request(
        mgp,
        McplMethods.stateRollback,
        { featureSet, checkpoint: state.checkpoint },
        timeoutMs,
      );
      const answer =
        rolled.kind === 'result' ? (rolled.result as Record<string, unknown>) : undefined;
      if (!answer || typeof answer.success !== 'boolean' || answer.checkpoint !== state.checkpoint)
        return fail({
          detail: `state/rollback to the checkpoint ${tool.name} just gave was not answered as §8.6 says`,
          expected: `{ checkpoint: "${state.checkpoint}", success: true|false, reason? }`,
          received: describeOutcome(rolled),
          exchange: exchangeOf(mgp, rolled.id),
        });
      const unknown = await request(
        mgp,
        McplMethods.stateRollback,
        { featureSet, checkpoint: `mgp-validate-${randomUUID()}` },
        timeoutMs,
      );
      if (unknown.kind !== 'error')
        return fail({
          detail: 'a rollback to a checkpoint the server never gave was not refused',
          expected: 'an error, -32005 Checkpoint not found (§8.7)',
          received: describeOutcome(unknown),
          exchange: exchangeOf(mgp, unknown.id),
        });
      return pass(
        `${tool.name} gave checkpoint ${state.checkpoint}; rollback to it answered success: ${String(answer.success)}; an unknown one refused with ${unknown.code}`,
      );
    }
    return callable.length
      ? skipped(
          `no tool of ${sets.map((s) => s.name).join(', ')} answered a state with its arguments made from its schema`,
        )
      : skipped(
          `no tool of ${sets.map((s) => s.name).join(', ')} could be called: ${left.slice(0, 2).join('; ')}`,
          'mark the tools safe or read-only, or run with --allow-dangerous',
        );
  },
};

const pushEvents: Check = {
  id: 'mcpl.push-events',
  tier: 'mcpl',
  title: 'Push events',
  section: 'MCPL §9.1–9.2',
  async run(context) {
    const mcpl = serverMcpl(context);
    if (!mcpl) return missing(NOT_MCPL);
    if (!mcpl.pushEvents) return missing('pushEvents is not advertised');
    const { seen, left } = await provoke(context, mcpl, 'pushEvents', McplMethods.pushEvent);
    const problems: string[] = [];
    for (const { params } of seen) {
      if (typeof params.eventId !== 'string')
        problems.push(`eventId ${shown(params.eventId)} is not a string`);
      if (typeof params.timestamp !== 'string' || Number.isNaN(Date.parse(params.timestamp)))
        problems.push(`timestamp ${shown(params.timestamp)} is not ISO 8601`);
      const payload = params.payload;
      if (!isRecord(payload) || !contentBlocks(payload.content))
        problems.push(`payload ${shown(payload)} has no content blocks`);
    }
    if (problems.length)
      return fail({
        detail: 'a push/event is malformed',
        expected:
          '{ featureSet, eventId, timestamp, origin?, payload: { content: ContentBlock[] } } (§9.2)',
        received: problems.slice(0, 4).join('; '),
      });
    if (!seen.length)
      return skipped(
        `no push/event came${left.length ? `; not called: ${left.slice(0, 2).join('; ')}` : ''}`,
        left.length ? 'run with --allow-dangerous to let the validator call the tools' : undefined,
      );
    return pass(`${seen.length} push event${seen.length === 1 ? '' : 's'} well formed`);
  },
};

const POSITIONS = ['system', 'beforeUser', 'afterUser'];

const contextHooks: Check = {
  id: 'mcpl.context-hooks',
  tier: 'mcpl',
  title: 'Context hooks',
  section: 'MCPL §10.1–10.5',
  async run(context) {
    const mcpl = serverMcpl(context);
    if (!mcpl) return missing(NOT_MCPL);
    if (!mcpl.beforeInference && !mcpl.afterInference.enabled)
      return missing('no context hook is advertised');
    const mgp = context.mgp!;
    const timeoutMs = context.options.checkTimeoutMs;
    const turn = {
      inferenceId: `inf_${randomUUID()}`,
      conversationId: 'conv_mgp_validate',
      turnIndex: 0,
      model: { id: 'mgp-validate', vendor: 'mgp-validate', capabilities: ['tools'] },
    };
    const done: string[] = [];
    if (mcpl.beforeInference) {
      const before = await request(
        mgp,
        McplMethods.beforeInference,
        { ...turn, userMessage: 'What do you remember?' },
        timeoutMs,
      );
      const result =
        before.kind === 'result' ? (before.result as Record<string, unknown>) : undefined;
      const injections = result?.contextInjections;
      const problems: string[] = [];
      if (!result) problems.push(describeOutcome(before));
      else if (injections !== undefined && !Array.isArray(injections))
        problems.push(`contextInjections ${shown(injections)} is not a list`);
      for (const injection of Array.isArray(injections) ? injections : []) {
        if (!isRecord(injection) || typeof injection.namespace !== 'string')
          problems.push(`injection ${shown(injection)} has no namespace`);
        else if (!POSITIONS.includes(injection.position as string))
          problems.push(
            `injection position ${shown(injection.position)} is not ${POSITIONS.join(', ')}`,
          );
        else if (!contentBlocks(injection.content))
          problems.push(`injection content ${shown(injection.content)} is not content`);
      }
      if (
        result &&
        Array.isArray(injections) &&
        injections.length &&
        !mcpl.featureSets.has(result.featureSet as string)
      )
        problems.push(`the answer's featureSet ${shown(result.featureSet)} is not declared (§6.5)`);
      if (problems.length)
        return fail({
          detail: 'context/beforeInference was not answered as §10.2 says',
          expected: '{ featureSet, contextInjections: [{ namespace, position, content }] }',
          received: problems.slice(0, 4).join('; '),
          exchange: exchangeOf(mgp, before.id),
        });
      done.push(
        `beforeInference answered ${Array.isArray(injections) ? injections.length : 0} injections`,
      );
    }
    if (mcpl.afterInference.enabled) {
      const params = {
        ...turn,
        userMessage: 'What do you remember?',
        assistantMessage: 'Nothing yet.',
      };
      if (mcpl.afterInference.blocking) {
        const after = await request(mgp, McplMethods.afterInference, params, timeoutMs);
        if (after.kind !== 'result')
          return fail({
            detail: 'a blocking context/afterInference was not answered',
            expected: 'a result (§10.5)',
            received: describeOutcome(after),
            exchange: exchangeOf(mgp, after.id),
          });
        done.push('afterInference (blocking) answered');
      } else {
        await mgp.connection.notify(McplMethods.afterInference, params);
        const alive = await request(mgp, 'tools/list', {}, timeoutMs);
        if (alive.kind !== 'result' || mgp.closedUnexpectedly)
          return fail({
            detail: 'after a context/afterInference notification the server no longer answers',
            expected: 'the notification taken (§10.5)',
            received: describeOutcome(alive),
          });
        done.push('afterInference taken as a notification');
      }
    }
    return pass(done.join('; '));
  },
};

const inference: Check = {
  id: 'mcpl.inference',
  tier: 'mcpl',
  title: 'Server-initiated inference',
  section: 'MCPL §11.1–11.2',
  async run(context) {
    const mcpl = serverMcpl(context);
    if (!mcpl) return missing(NOT_MCPL);
    if (!mcpl.inferenceRequest.enabled) return missing('inferenceRequest is not advertised');
    const { seen, left } = await provoke(
      context,
      mcpl,
      'inferenceRequest',
      McplMethods.inferenceRequest,
    );
    const problems: string[] = [];
    for (const { params } of seen)
      if (!Array.isArray(params.messages) || !params.messages.length)
        problems.push(`messages ${shown(params.messages)} is not a list of messages`);
    if (problems.length)
      return fail({
        detail: 'an inference/request is malformed',
        expected: '{ featureSet, messages: [...], preferences?, stream? } (§11.2)',
        received: problems.slice(0, 4).join('; '),
      });
    if (!seen.length)
      return skipped(
        `no inference/request came${left.length ? `; not called: ${left.slice(0, 2).join('; ')}` : ''}`,
        left.length ? 'run with --allow-dangerous to let the validator call the tools' : undefined,
      );
    return pass(
      `${seen.length} inference request${seen.length === 1 ? '' : 's'} well formed (the validator has no model, and said so)`,
    );
  },
};

const DIRECTIONS = ['outbound', 'inbound', 'bidirectional'];

const channels: Check = {
  id: 'mcpl.channels',
  tier: 'mcpl',
  title: 'Channels',
  section: 'MCPL §14.1–14.3',
  async run(context) {
    const mcpl = serverMcpl(context);
    if (!mcpl) return missing(NOT_MCPL);
    const advertised = mcpl.channels.register || mcpl.channels.publish || mcpl.channels.observe;
    if (!advertised) return missing('channels are not advertised');
    const mgp = context.mgp!;
    const listed = await request(mgp, McplMethods.channelsList, {}, context.options.checkTimeoutMs);
    const descriptors: unknown[] = [];
    for (const { params } of requestsOf(context, McplMethods.channelsRegister))
      descriptors.push(...(Array.isArray(params.channels) ? params.channels : [params.channels]));
    const problems: string[] = [];
    if (listed.kind === 'result') {
      const list = (listed.result as { channels?: unknown }).channels;
      if (!Array.isArray(list))
        problems.push(`channels/list answered ${shown(listed.result)}, without a channels list`);
      else descriptors.push(...list);
    } else if (!(listed.kind === 'error' && listed.code === -32601))
      problems.push(`channels/list: ${describeOutcome(listed)}`);
    for (const descriptor of descriptors) {
      if (
        !isRecord(descriptor) ||
        typeof descriptor.id !== 'string' ||
        typeof descriptor.type !== 'string'
      )
        problems.push(`descriptor ${shown(descriptor)} lacks id or type`);
      else if (
        descriptor.direction !== undefined &&
        !DIRECTIONS.includes(descriptor.direction as string)
      )
        problems.push(
          `${descriptor.id}: direction ${shown(descriptor.direction)} is not ${DIRECTIONS.join(', ')}`,
        );
    }
    if (problems.length)
      return fail({
        detail: 'channels are not described as §14.2 says',
        expected:
          'ChannelDescriptor { id, type, label, direction outbound|inbound|bidirectional, address }',
        received: problems.slice(0, 4).join('; '),
        exchange: exchangeOf(mgp, listed.id),
      });
    return pass(
      `${descriptors.length} channel descriptor${descriptors.length === 1 ? '' : 's'} well formed`,
    );
  },
};

export const MCPL_CHECKS: readonly Check[] = [
  negotiation,
  featureSets,
  scopes,
  checkpoints,
  pushEvents,
  contextHooks,
  inference,
  channels,
];
