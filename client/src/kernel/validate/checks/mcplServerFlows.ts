/**
 * The MCPL traffic a server starts (MCPL §9–11): push events, context hooks and inference requests.
 * Hooks are called; a tool of a feature set that pushes or infers is called to make it do so.
 */
import { randomUUID } from 'node:crypto';
import { contentBlocks, isRecord, McplMethods } from '../../mcpl/protocol';
import {
  type Check,
  describeOutcome,
  exchangeOf,
  fail,
  missing,
  pass,
  request,
  shown,
} from '../context';
import { NOT_MCPL, notProvoked, provoke, serverMcpl } from './mcplCommon';

export const pushEvents: Check = {
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
    if (!seen.length) return notProvoked('push/event', left);
    return pass(`${seen.length} push event${seen.length === 1 ? '' : 's'} well formed`);
  },
};

const POSITIONS = ['system', 'beforeUser', 'afterUser'];

export const contextHooks: Check = {
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

export const inference: Check = {
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
    if (!seen.length) return notProvoked('inference/request', left);
    return pass(
      `${seen.length} inference request${seen.length === 1 ? '' : 's'} well formed (the validator has no model, and said so)`,
    );
  },
};
