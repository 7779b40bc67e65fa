/**
 * MGP Tier 3 (§17.5): health and lifecycle (§11), streaming with progress and cancel (§12), events
 * and callbacks (§13), and the server's advertisement for discovery (§15.3). Tier 4: dynamic tool
 * discovery (§16), where the server takes part.
 */
import { SERVER_ID } from '@shared/schemas/vocabulary';
import {
  type Check,
  describeOutcome,
  exchangeOf,
  fail,
  missing,
  pass,
  request,
  shown,
  skipped,
} from '../context';
import { PLAIN_MCP } from './tier1';
import { needs, noticesOf } from './tier3Shared';

const STATES = [
  'registered',
  'connecting',
  'connected',
  'draining',
  'disconnected',
  'error',
  'restarting',
];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)$/;
const HEALTH_MS = 5000;

const lifecycle: Check = {
  id: 'mgp.lifecycle',
  tier: 3,
  title: 'Health and lifecycle',
  section: 'MGP §11.3, §11.5',
  extension: '§11 Lifecycle',
  timeoutMs: HEALTH_MS + 2000,
  async run(context) {
    const absent = needs(
      context,
      'lifecycle',
      'list "lifecycle", answer ping within 5 s, announce state changes',
    );
    if (absent) return absent;
    const mgp = context.mgp!;
    const started = Date.now();
    const ping = await request(mgp, 'ping', {}, HEALTH_MS);
    if (ping.kind !== 'result')
      return fail({
        detail: `the health check (ping) was not answered within ${HEALTH_MS / 1000} s`,
        expected:
          "an answer within 5 seconds: mgp.health.ping is the kernel's ping of the server (§11.3 MUST)",
        received: describeOutcome(ping),
        exchange: exchangeOf(mgp, ping.id),
      });
    const problems: string[] = [];
    for (const { params } of noticesOf(mgp, 'notifications/mgp.lifecycle')) {
      if (!STATES.includes(params.new_state as string))
        problems.push(`new_state ${shown(params.new_state)} is not a §11.2 state`);
      if (params.previous_state !== undefined && !STATES.includes(params.previous_state as string))
        problems.push(`previous_state ${shown(params.previous_state)} is not a §11.2 state`);
      if (typeof params.timestamp !== 'string' || !ISO.test(params.timestamp))
        problems.push(`timestamp ${shown(params.timestamp)} is not ISO 8601`);
    }
    if (problems.length)
      return fail({
        detail: 'a notifications/mgp.lifecycle is malformed',
        expected:
          '{ server_id, previous_state, new_state, reason, timestamp } with §11.2 states (§11.5)',
        received: problems.slice(0, 4).join('; '),
      });
    const seen = noticesOf(mgp, 'notifications/mgp.lifecycle').length;
    return pass(
      `answers the health check in ${Date.now() - started} ms${seen ? `; ${seen} lifecycle notification${seen === 1 ? '' : 's'} well formed` : ''}`,
    );
  },
};

const CALLBACK_TYPES = ['confirmation', 'input', 'selection', 'notification', 'llm_completion'];
const CHANNEL_PATTERNS = /^(model|system|tool|security)\./;

const bidirectional: Check = {
  id: 'mgp.bidirectional',
  tier: 3,
  title: 'Events and callbacks',
  section: 'MGP §13.3–13.5',
  extension: '§13 Bidirectional',
  async run(context) {
    const absent = needs(
      context,
      'bidirectional',
      'list "bidirectional" and publish events as notifications/mgp.event',
    );
    if (absent) return absent;
    const mgp = context.mgp!;
    const events = noticesOf(mgp, 'notifications/mgp.event');
    const callbacks = noticesOf(mgp, 'notifications/mgp.callback.request');
    const problems: string[] = [];
    for (const { params } of events) {
      if (typeof params.channel !== 'string' || !CHANNEL_PATTERNS.test(params.channel))
        problems.push(
          `event channel ${shown(params.channel)} is not within model.*, system.*, tool.* or security.* (§13.5)`,
        );
      if (typeof params.timestamp !== 'string' || !ISO.test(params.timestamp))
        problems.push(`event timestamp ${shown(params.timestamp)} is not ISO 8601`);
      if (typeof params.data !== 'object' || params.data === null)
        problems.push(`event data ${shown(params.data)} is not an object`);
    }
    for (const { params } of callbacks) {
      if (typeof params.callback_id !== 'string')
        problems.push(`callback_id ${shown(params.callback_id)} is not a string`);
      if (!CALLBACK_TYPES.includes(params.type as string))
        problems.push(
          `callback type ${shown(params.type)} is not one of ${CALLBACK_TYPES.join(', ')}`,
        );
    }
    if (problems.length)
      return fail({
        detail: 'an event or callback the server sent is malformed',
        expected:
          'notifications/mgp.event { channel, timestamp, data } and callback requests { callback_id, type } (§13.3, §13.4)',
        received: problems.slice(0, 4).join('; '),
      });
    if (!events.length && !callbacks.length)
      return skipped(
        'the server lists bidirectional, but sent no event or callback during the run: nothing to judge',
      );
    return pass(
      `${events.length} event${events.length === 1 ? '' : 's'} (${[...new Set(events.map((e) => String(e.params.channel)))].join(', ') || 'none'}) and ${callbacks.length} callback${callbacks.length === 1 ? '' : 's'} well formed`,
    );
  },
};

const discovery: Check = {
  id: 'mgp.discovery',
  tier: 3,
  title: 'Advertised for discovery',
  section: 'MGP §15.3, §2.3',
  extension: '§15 Discovery',
  async run(context) {
    if (!context.serverMgp) return missing(PLAIN_MCP);
    const id = context.serverMgp.server_id;
    if (id === undefined)
      return missing(
        "capabilities.mgp has no server_id: the registry (§15.4) has no id of the server's own to list it under",
        'give server_id in capabilities.mgp (with the server kit: enableMgp(server, { serverId }))',
      );
    if (typeof id !== 'string' || !SERVER_ID.test(id))
      return fail({
        detail: 'server_id is not an id',
        expected: 'a string of letters, digits, ".", "_" and "-" (§2.3, §15.2)',
        received: shown(id),
      });
    return pass(`advertises itself as "${id}" with its extensions and permissions at initialize`);
  },
};

const toolDiscovery: Check = {
  id: 'mgp.tool-discovery',
  tier: 4,
  title: 'Tools described for dynamic discovery',
  section: 'MGP §16.2, §16.4',
  extension: '§16 Tool Discovery',
  async run(context) {
    const absent = needs(
      context,
      'tool_discovery',
      'list "tool_discovery" and describe every tool so the kernel\'s index finds it',
    );
    if (absent) return absent;
    const problems: string[] = [];
    for (const tool of context.mgpTools ?? []) {
      if (!tool.description?.trim()) problems.push(`${tool.name} has no description to search`);
      const extra = tool as Record<string, unknown>;
      for (const field of ['categories', 'keywords'])
        if (
          extra[field] !== undefined &&
          !(
            Array.isArray(extra[field]) &&
            (extra[field] as unknown[]).every((x) => typeof x === 'string')
          )
        )
          problems.push(`${tool.name}: ${field} is not a list of words`);
      if (
        extra.embedding !== undefined &&
        !(
          Array.isArray(extra.embedding) &&
          (extra.embedding as unknown[]).every((x) => typeof x === 'number')
        )
      )
        problems.push(`${tool.name}: embedding is not a list of numbers`);
    }
    if (problems.length)
      return fail({
        detail: "tools are not described so that the kernel's tool index can find them",
        expected:
          'a description on every tool; categories and keywords lists of words; embedding numbers (§16.4)',
        received: problems.slice(0, 6).join('; '),
      });
    return pass(
      `${(context.mgpTools ?? []).length} tools described for keyword and category search`,
    );
  },
};

import { streaming } from './tier3Streaming';

export const TIER3_CHECKS: readonly Check[] = [lifecycle, streaming, bidirectional, discovery];
export const TIER4_CHECKS: readonly Check[] = [toolDiscovery];
