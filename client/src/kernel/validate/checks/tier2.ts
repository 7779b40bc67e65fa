/**
 * MGP Tier 2 (§17.5): the permission flow (§3.4–3.6) driven as a kernel drives it, audit events
 * taken (§6), structured errors (§14.4–14.5), and access control left to the kernel (§5).
 */
import { randomUUID } from 'node:crypto';
import {
  callableTools,
  callTool,
  type Check,
  type CheckContext,
  describeOutcome,
  exchangeOf,
  fail,
  missing,
  type Outcome,
  pass,
  request,
  securityOf,
  shown,
  skipped,
  stringList,
  type Verdict,
} from '../context';
import type { Probe } from '../probe';
import { PLAIN_MCP } from './tier1';

const PERMISSION_DENIED = 1000;

function needsNegotiated(context: CheckContext, extension: string): string | undefined {
  if (!context.serverMgp) return PLAIN_MCP;
  if (!context.negotiated.has(extension))
    return `the server does not list the "${extension}" extension`;
  return undefined;
}

/** Whether an outcome is a refusal: a JSON-RPC error or a tool error. */
function refused(outcome: Outcome): boolean {
  return outcome.kind === 'error' || (outcome.kind === 'result' && outcome.result.isError === true);
}

function permissionRefusal(outcome: Outcome): boolean {
  if (outcome.kind === 'error') return outcome.code === PERMISSION_DENIED;
  if (outcome.kind !== 'result' || !outcome.result.isError) return false;
  const text = JSON.stringify(outcome.result.content ?? []);
  return /permission/i.test(text);
}

async function grant(
  mgp: Probe,
  requestId: string,
  grants: Record<string, string>,
  timeoutMs: number,
): Promise<Outcome> {
  return request(
    mgp,
    'mgp/permission/grant',
    { request_id: requestId, grants, approved_by: 'mgp-validate' },
    timeoutMs,
  );
}

const permissionFlow: Check = {
  id: 'mgp.permission-flow',
  tier: 2,
  title: 'Permission flow (await and grant)',
  section: 'MGP §3.4–3.6',
  extension: '§3 Permission Approval',
  async run(context): Promise<Verdict> {
    const why = needsNegotiated(context, 'security');
    if (why)
      return missing(
        why,
        context.serverMgp
          ? 'implement mgp/permission/await and mgp/permission/grant (§3.5, §3.6)'
          : undefined,
      );
    const mgp = context.mgp!;
    const timeoutMs = context.options.checkTimeoutMs;
    const declared = stringList(context.serverMgp?.permissions_required) ?? [];
    const requestId = `mgp-validate-${randomUUID()}`;
    const awaited = await request(
      mgp,
      'mgp/permission/await',
      {
        request_id: requestId,
        permissions: declared,
        policy: 'interactive',
        message: 'mgp validate: waiting for the operator',
      },
      timeoutMs,
    );
    if (awaited.kind !== 'result')
      return fail({
        detail: 'mgp/permission/await was not answered',
        expected: 'a result: the server holds restricted operations until a grant (§3.5)',
        received: describeOutcome(awaited),
        exchange: exchangeOf(mgp, awaited.id),
        advice:
          'a server that negotiates "security" takes mgp/permission/await and mgp/permission/grant',
      });
    // A tool that needs a permission the flow is about, and that the validator may call.
    const needing = (context.mgpTools ?? []).filter((tool) =>
      (stringList(securityOf(tool)?.permissions_required) ?? []).some((p) => declared.includes(p)),
    );
    const { callable, left } = callableTools(context, needing);
    const target = callable[0];
    if (!target) {
      const approved = await grant(
        mgp,
        requestId,
        Object.fromEntries(declared.map((p) => [p, 'approved'])),
        timeoutMs,
      );
      if (approved.kind !== 'result')
        return fail({
          detail: 'mgp/permission/grant was not answered',
          expected: 'a result acknowledging the decision (§3.6)',
          received: describeOutcome(approved),
          exchange: exchangeOf(mgp, approved.id),
        });
      return needing.length
        ? skipped(
            `await and grant are answered; whether a tool waits for its grant was not tried: ${left.join('; ')}`,
            'run with --allow-dangerous to let the validator call it',
          )
        : pass('await and grant are answered; no tool requires a declared permission');
    }
    const { tool, args } = target;
    const permissions = (stringList(securityOf(tool)?.permissions_required) ?? []).filter((p) =>
      declared.includes(p),
    );
    const whileAwaiting = await callTool(mgp, tool, args, { timeoutMs });
    if (!refused(whileAwaiting))
      return fail({
        detail: `${tool.name} ran while ${permissions.join(', ')} awaited the operator's decision`,
        expected: `a refusal (error ${PERMISSION_DENIED} PERMISSION_DENIED): the server MUST NOT proceed until a grant arrives (§3.5)`,
        received: describeOutcome(whileAwaiting),
        exchange: exchangeOf(mgp, whileAwaiting.id),
        advice: 'hold every tool that requires a permission until mgp/permission/grant approves it',
      });
    const denied = await grant(
      mgp,
      requestId,
      Object.fromEntries(permissions.map((p) => [p, 'denied'])),
      timeoutMs,
    );
    if (denied.kind !== 'result')
      return fail({
        detail: 'mgp/permission/grant was not answered',
        expected: 'a result acknowledging the decision (§3.6)',
        received: describeOutcome(denied),
        exchange: exchangeOf(mgp, denied.id),
      });
    const whileDenied = await callTool(mgp, tool, args, { timeoutMs });
    if (!refused(whileDenied))
      return fail({
        detail: `${tool.name} ran although ${permissions.join(', ')} was denied`,
        expected: `a refusal (error ${PERMISSION_DENIED}): a denied permission is not held (§3.6)`,
        received: describeOutcome(whileDenied),
        exchange: exchangeOf(mgp, whileDenied.id),
      });
    const approved = await grant(
      mgp,
      requestId,
      Object.fromEntries(declared.map((p) => [p, 'approved'])),
      timeoutMs,
    );
    const afterApproval = await callTool(mgp, tool, args, { timeoutMs });
    if (approved.kind !== 'result' || permissionRefusal(afterApproval))
      return fail({
        detail: `${tool.name} is still refused for its permissions after they were approved`,
        expected: 'the call goes ahead once the grant approves what it needs (§3.6)',
        received: describeOutcome(approved.kind !== 'result' ? approved : afterApproval),
        exchange: exchangeOf(mgp, (approved.kind !== 'result' ? approved : afterApproval).id),
      });
    return pass(
      `${tool.name} waited while ${permissions.join(', ')} awaited a decision, was refused while denied, and ran once approved`,
    );
  },
};

const audit: Check = {
  id: 'mgp.audit',
  tier: 2,
  title: 'Audit events taken',
  section: 'MGP §6.3–6.5',
  extension: '§6 Audit',
  async run(context) {
    const why = needsNegotiated(context, 'audit');
    if (why)
      return missing(
        why,
        context.serverMgp ? 'list "audit" and take notifications/mgp.audit (§6.3)' : undefined,
      );
    const mgp = context.mgp!;
    const event = {
      timestamp: new Date().toISOString(),
      trace_id: randomUUID(),
      event_type: 'TOOL_EXECUTED',
      actor: { type: 'agent', id: 'agent.mgp-validate' },
      target: { server_id: 'validated', tool_name: 'mgp-validate' },
      result: 'SUCCESS',
      details: { risk_level: 'safe', duration_ms: 1 },
    };
    await mgp.connection.notify('notifications/mgp.audit', event);
    // tools/list, not ping: the health check is §11's, judged on its own.
    const after = await request(mgp, 'tools/list', {}, context.options.checkTimeoutMs);
    if (after.kind !== 'result' || mgp.closedUnexpectedly)
      return fail({
        detail: 'after a notifications/mgp.audit the server no longer answers',
        expected: 'audit events taken as notifications, the session going on (§6.3)',
        received: mgp.closedUnexpectedly ? 'the connection closed' : describeOutcome(after),
        exchange: {
          sent: shown({ method: 'notifications/mgp.audit', params: event }),
          received: describeOutcome(after),
        },
      });
    return pass('takes notifications/mgp.audit and goes on answering');
  },
};

const CATEGORIES: [number, number, string][] = [
  [1000, 1099, 'security'],
  [2000, 2099, 'lifecycle'],
  [3000, 3099, 'resource'],
  [4000, 4099, 'validation'],
  [5000, 5099, 'external'],
];
const STRATEGIES = ['immediate', 'fixed_delay', 'exponential_backoff'];

/** What is wrong with the `_mgp` of an error with an MGP code (§14.4, §14.5); undefined when right. */
export function structuredErrorProblem(code: number, data: unknown): string | undefined {
  const range = CATEGORIES.find(([low, high]) => code >= low && code <= high);
  if (!range) return undefined;
  const mgp = (data as { _mgp?: unknown } | undefined)?._mgp as Record<string, unknown> | undefined;
  if (typeof mgp !== 'object' || mgp === null) return `error ${code} has no data._mgp`;
  const problems: string[] = [];
  if (mgp.category !== range[2])
    problems.push(
      `category ${shown(mgp.category)} (codes ${range[0]}–${range[1]} are "${range[2]}")`,
    );
  if (typeof mgp.retryable !== 'boolean')
    problems.push(`retryable ${shown(mgp.retryable)} is not a boolean`);
  for (const field of ['retry_after_ms', 'max_retries'])
    if (mgp[field] !== undefined && (typeof mgp[field] !== 'number' || (mgp[field] as number) < 0))
      problems.push(`${field} ${shown(mgp[field])} is not a number ≥ 0`);
  if (mgp.retry_strategy !== undefined && !STRATEGIES.includes(mgp.retry_strategy as string))
    problems.push(
      `retry_strategy ${shown(mgp.retry_strategy)} is not one of ${STRATEGIES.join(', ')}`,
    );
  if (mgp.fallback_tool !== undefined && typeof mgp.fallback_tool !== 'string')
    problems.push('fallback_tool is not a tool name');
  return problems.length ? `error ${code}: ${problems.join(', ')}` : undefined;
}

const errors: Check = {
  id: 'mgp.structured-errors',
  tier: 2,
  title: 'Structured errors',
  section: 'MGP §14.2–14.5',
  extension: '§14 Error Handling',
  async run(context) {
    if (!context.serverMgp) return missing(PLAIN_MCP);
    const mgp = context.mgp!;
    const timeoutMs = context.options.checkTimeoutMs;
    // Provoke what a server answers with an error: an unknown tool, arguments its schema refuses.
    await callTool(mgp, 'mgp-validate-no-such-tool', {}, { timeoutMs });
    const withArgs = (context.mgpTools ?? []).find(
      (tool) =>
        Array.isArray((tool.inputSchema as { required?: unknown })?.required) &&
        (tool.inputSchema as { required: unknown[] }).required.length > 0,
    );
    if (withArgs) await callTool(mgp, withArgs, {}, { timeoutMs });
    const seen: { code: number; data: unknown; id: unknown }[] = [];
    for (const { direction, message } of mgp.trace)
      if (direction === 'receive' && 'error' in message)
        seen.push({ code: message.error.code, data: message.error.data, id: message.id });
    const structured = seen.filter(({ code }) => code >= 1000 && code <= 5099);
    for (const error of structured) {
      const problem = structuredErrorProblem(error.code, error.data);
      if (problem)
        return fail({
          detail: 'an MGP error lacks the recovery fields §14.4 gives it',
          expected:
            'data._mgp with category (by code range) and retryable, and the optional fields of §14.5 typed',
          received: problem,
          exchange: exchangeOf(mgp, error.id as string | number),
          advice:
            'throw MGP errors with their _mgp (with the server kit: mgpError(code, message, { retryable }))',
        });
    }
    if (structured.length)
      return pass(
        `${structured.length} MGP error${structured.length === 1 ? '' : 's'} (${[...new Set(structured.map((e) => e.code))].join(', ')}) carry their _mgp`,
      );
    return context.negotiated.has('error_handling')
      ? skipped(
          `the server lists error_handling, but nothing the validator did drew an MGP-coded error (${seen.length} JSON-RPC error${seen.length === 1 ? '' : 's'} in all)`,
          'refuse an unknown tool with 4001 or bad arguments with 4000, with data._mgp',
        )
      : missing(
          `no MGP-coded error (1000–5099) came back; ${seen.length} plain JSON-RPC error${seen.length === 1 ? '' : 's'}`,
          'answer with §14.3 codes and data._mgp, and list "error_handling"',
        );
  },
};

const accessControl: Check = {
  id: 'mgp.access-control',
  tier: 2,
  title: 'Access control left to the kernel',
  section: 'MGP §5, §17.1',
  extension: '§5 Access Control',
  async run(context) {
    const claimed = (context.mgpTools ?? context.plainTools ?? []).filter((tool) =>
      tool.name.startsWith('mgp.'),
    );
    if (claimed.length)
      return fail({
        detail: "the server lists tools in the mgp.* namespace, which is the kernel's",
        expected:
          "no server tool named mgp.*: access control and the other kernel tools are the kernel's (§5.4, §17.1 item 4, §17.2 item 4)",
        received: claimed.map((tool) => tool.name).join(', '),
        advice: 'rename the tools; a server never implements kernel tools',
      });
    const why = needsNegotiated(context, 'access_control');
    if (why)
      return missing(
        why,
        context.serverMgp
          ? 'list "access_control": the kernel enforces agent access to your tools (§5)'
          : undefined,
      );
    return pass('negotiates access_control and leaves the mgp.* tools to the kernel');
  },
};

export const TIER2_CHECKS: readonly Check[] = [permissionFlow, audit, errors, accessControl];
