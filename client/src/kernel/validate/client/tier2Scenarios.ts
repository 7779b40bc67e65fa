/**
 * Client scenarios of MGP Tier 2 (§17.5): the permission flow driven as §3.4 puts it (the server
 * declares what it needs; the client awaits, decides and grants before a restricted call), the
 * client's retry behaviour on §14 errors (§14.6). Audit forwarding (§6.3) is in auditScenario.ts.
 */
import { fail, missing, pass, shown } from '../context';
import { INVALID_TOOL_ARGS, mgpError } from './probeHandlers';
import { exchangeOf, notOffered, sessionsWith, text } from './observe';
import type { ClientCheck, ClientScenario, Observation } from './scenario';

const PERMISSION = 'memory.write';
const WRITE_TOOL = 'write_note';
const GRANTS = new Set(['approved', 'denied', 'deferred']);

function judgePermissionFlow(seen: Observation) {
  const absent = notOffered(seen, 'security', 'offer "security" and run the §3.4 flow');
  if (absent) return absent;
  const sessions = sessionsWith(seen, 'security');
  const flows = sessions.filter(
    (s) => s.requests('mgp/permission/await').length || s.requests('mgp/permission/grant').length,
  );
  if (!flows.length)
    return missing(
      `the probe declared permissions_required ["${PERMISSION}"] and the client sent neither mgp/permission/await nor mgp/permission/grant`,
      'apply the approval policy to permissions_required, and deliver the decision with mgp/permission/grant (MGP §3.4–3.6)',
    );
  for (const session of flows) {
    const [awaited] = session.requests('mgp/permission/await');
    const [granted] = session.requests('mgp/permission/grant');
    if (!granted)
      return fail({
        detail: 'mgp/permission/await was sent and no mgp/permission/grant followed',
        expected: 'the decision delivered with mgp/permission/grant (MGP §3.6)',
        received: 'the server left waiting',
        exchange: exchangeOf(session, awaited.id),
      });
    const grants = granted.params.grants as Record<string, unknown> | undefined;
    const problems: string[] = [];
    if (typeof granted.params.request_id !== 'string') problems.push('no request_id');
    if (typeof grants !== 'object' || grants === null) problems.push('no grants object');
    else if (!GRANTS.has(String(grants[PERMISSION])))
      problems.push(`grants["${PERMISSION}"] is ${shown(grants[PERMISSION])}`);
    if (awaited) {
      if (awaited.at > granted.at) problems.push('the await came after the grant');
      if (awaited.params.request_id !== granted.params.request_id)
        problems.push('the await and the grant name different request_ids');
      const permissions = awaited.params.permissions;
      if (!Array.isArray(permissions) || !permissions.includes(PERMISSION))
        problems.push(`the await's permissions ${shown(permissions)} do not name ${PERMISSION}`);
    }
    const early = session.toolCalls(WRITE_TOOL).find((call) => call.at < granted.at);
    if (early) problems.push(`${WRITE_TOOL} was called before the decision was delivered`);
    if (problems.length)
      return fail({
        detail: problems.join('; '),
        expected: `mgp/permission/await { request_id, permissions: ["${PERMISSION}"] } when asking the operator, then mgp/permission/grant { request_id (the same), grants: { "${PERMISSION}": approved|denied|deferred } }, then the call (MGP §3.4–3.6)`,
        received: problems[0],
        exchange: exchangeOf(session, (early ?? granted).id),
      });
    const decision = String(grants?.[PERMISSION]);
    const ran = session.toolCalls(WRITE_TOOL).length > 0;
    return pass(
      `${awaited ? 'mgp/permission/await, then ' : ''}mgp/permission/grant ${PERMISSION}: ${decision}${ran ? `, then ${WRITE_TOOL} was called` : ''}`,
    );
  }
  return missing('no permission flow');
}

const permissionFlow: ClientCheck = {
  id: 'mgp.client.permission-flow',
  tier: 2,
  title: 'Permission flow (await and grant)',
  section: 'MGP §3.4–3.6',
  extension: '§3 Permission Approval',
  judge: judgePermissionFlow,
};

export const PERMISSION_SCENARIO: ClientScenario = {
  name: 'mgp-permission-flow',
  context: {
    ask: `call ${WRITE_TOOL}, approving the permissions the server asks for`,
    tool: WRITE_TOOL,
    arguments: { text: 'hello' },
    permission: PERMISSION,
  },
  permissionsRequired: [PERMISSION],
  tools: () => [
    {
      name: WRITE_TOOL,
      description: 'Store a note',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      },
      security: {
        risk_level: 'moderate',
        permissions_required: [PERMISSION],
        side_effects: ['database'],
        reversible: true,
      },
      run: async () => text('stored'),
    },
  ],
  checks: [permissionFlow],
};

const RETRYABLE_TOOL = 'lookup_rate';
const FINAL_TOOL = 'parse_strict';
const RETRY_AFTER_MS = 400;
const MAX_RETRIES = 2;
/** Date.now() granularity between the probe's two clocks readings. */
const CLOCK_SLACK_MS = 5;

function judgeRetries(seen: Observation) {
  const absent = notOffered(seen, 'error_handling', 'offer "error_handling" and follow §14.6');
  if (absent) return absent;
  const sessions = sessionsWith(seen, 'error_handling');
  const retried = sessions.find((s) => s.toolCalls(FINAL_TOOL).length > 1);
  if (retried)
    return fail({
      detail: `${FINAL_TOOL} failed with retryable: false and the client called it again`,
      expected: 'no retry of an error whose _mgp.retryable is false (MGP §14.6: MUST NOT)',
      received: `${retried.toolCalls(FINAL_TOOL).length} calls in one session`,
      exchange: exchangeOf(retried, retried.toolCalls(FINAL_TOOL)[0].id),
    });
  const withRetryable = sessions.filter((s) => s.toolCalls(RETRYABLE_TOOL).length);
  if (!withRetryable.length || !sessions.some((s) => s.toolCalls(FINAL_TOOL).length))
    return fail({
      detail: `the client was asked to call ${RETRYABLE_TOOL} and ${FINAL_TOOL} once each, and did not`,
      expected: 'a tools/call of each',
      received: `calls: ${sessions.flatMap((s) => s.toolCalls().map((c) => String(c.params.name))).join(', ') || 'none'}`,
    });
  let retries = 0;
  for (const session of withRetryable) {
    const calls = session.toolCalls(RETRYABLE_TOOL);
    if (calls.length - 1 > MAX_RETRIES)
      return fail({
        detail: `${RETRYABLE_TOOL} was retried ${calls.length - 1} times`,
        expected: `at most max_retries (${MAX_RETRIES}) retries (MGP §14.6 step 3)`,
        received: `${calls.length} calls`,
      });
    for (let i = 1; i < calls.length; i++) {
      const errorAt = session.answerTo(calls[i - 1].id)?.at ?? calls[i - 1].at;
      const waited = calls[i].at - errorAt;
      if (waited + CLOCK_SLACK_MS < RETRY_AFTER_MS)
        return fail({
          detail: `${RETRYABLE_TOOL} was retried ${waited} ms after the error`,
          expected: `a wait of at least retry_after_ms (${RETRY_AFTER_MS} ms) (MGP §14.6 step 1)`,
          received: `${waited} ms`,
          exchange: exchangeOf(session, calls[i - 1].id),
        });
      retries++;
    }
  }
  if (!retries)
    return missing(
      `${RETRYABLE_TOOL} failed with retryable: true, retry_after_ms ${RETRY_AFTER_MS}, and the client did not retry it`,
      'retry a retryable error after retry_after_ms, up to max_retries (MGP §14.6)',
    );
  return pass(
    `${FINAL_TOOL} (retryable: false) was not retried; ${RETRYABLE_TOOL} was retried ${retries === 1 ? 'once' : `${retries} times`}, each at least ${RETRY_AFTER_MS} ms after the error`,
  );
}

const retryBehaviour: ClientCheck = {
  id: 'mgp.client.error-retries',
  tier: 2,
  title: 'Structured errors: retryable and not',
  section: 'MGP §14.4–14.6',
  extension: '§14 Error Handling',
  judge: judgeRetries,
};

export const ERRORS_SCENARIO: ClientScenario = {
  name: 'mgp-error-retries',
  context: {
    ask: `call ${RETRYABLE_TOOL} and ${FINAL_TOOL} once each`,
    tools: [RETRYABLE_TOOL, FINAL_TOOL],
  },
  tools: () => [
    {
      name: RETRYABLE_TOOL,
      description: 'Look up an exchange rate; rate limited at first',
      inputSchema: { type: 'object', properties: {} },
      security: { risk_level: 'safe' },
      annotations: { readOnlyHint: true },
      // The first call of a session is rate limited (MGP §14.3 3000); the retry succeeds.
      run: async ({ session }) => {
        if (session.toolCalls(RETRYABLE_TOOL).length > 1) return text('1.08');
        throw mgpError(3000, 'Rate limited: try again shortly', {
          category: 'resource',
          retryable: true,
          retry_after_ms: RETRY_AFTER_MS,
          retry_strategy: 'fixed_delay',
          max_retries: MAX_RETRIES,
        });
      },
    },
    {
      name: FINAL_TOOL,
      description: 'Parse a document strictly; always rejects its arguments',
      inputSchema: { type: 'object', properties: {} },
      security: { risk_level: 'safe' },
      annotations: { readOnlyHint: true },
      run: async () => {
        throw mgpError(INVALID_TOOL_ARGS, 'Invalid arguments: no document given', {
          category: 'validation',
          retryable: false,
        });
      },
    },
  ],
  checks: [retryBehaviour],
};
