/**
 * MCPL 0.4.1, where the server advertises it (`experimental.mcpl`, MCPL §5.1): feature sets and
 * their tagging (§6), scopes (§7), checkpoints and rollback (§8), push events (§9), context hooks
 * (§10), inference requests (§11) and channels (§14). What needs an action is done: hooks are
 * called, a rollback is asked for, a tool of a feature set is called to make it push or infer.
 */
import { randomUUID } from 'node:crypto';
import { parseServerMcpl } from '../../mcpl/capabilities';
import { isRecord, McplMethods } from '../../mcpl/protocol';
import {
  callableTools,
  callTool,
  type Check,
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
import { featureSetOf, NOT_MCPL, requestsOf, serverMcpl } from './mcplCommon';
import { contextHooks, inference, pushEvents } from './mcplServerFlows';

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
