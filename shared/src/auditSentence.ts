/**
 * One audit record in plain words ("Copilot called files.write_file; approved once by you") and the
 * permission or approval scope it is about, for the Audit Trail's table and detail pane. Pure: built
 * only from the record's fields (MGP §6.3), for every event type the kernel writes (MGP §6.4 and its
 * own `dev.mgp-kernel.*` types); an unknown type still gets a readable line.
 * The table's index makes each row's sentence once, as it reads the record; sentences repeat a lot
 * (the same agent calling the same tool), so they are kept once each, and long texts are cut short.
 */

export interface SentenceRecord {
  event_type: string;
  actor?: { type?: string; id?: string };
  target?: { server_id?: string; tool_name?: string };
  result: string;
  details?: Record<string, unknown>;
}

const MAX_TEXT = 160;

function clip(text: string, max = MAX_TEXT): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function text(value: unknown): string {
  return typeof value === 'string' ? clip(value) : '';
}

/** Who did it, in plain words: "you", "Copilot", "the kernel", "server files". */
export function actorName(actor: SentenceRecord['actor']): string {
  const id = actor?.id ?? '';
  if (actor?.type === 'operator') return id === 'agent.cli' ? 'you (mgp command)' : 'you';
  if (actor?.type === 'kernel') return 'the kernel';
  if (actor?.type === 'server') return `server ${id}`;
  return agentName(id);
}

/** An agent's id in plain words. */
export function agentName(id: string): string {
  if (id === 'agent.vscode' || id === 'operator' || id === 'user') return 'you';
  if (id === 'agent.copilot') return 'Copilot';
  if (id === 'agent.chat') return 'the @mgp chat';
  if (id === 'agent.cli') return 'the mgp command';
  if (id.startsWith('agent.gateway.')) return `gateway client ${id.slice('agent.gateway.'.length)}`;
  return id || 'someone';
}

/** The first letter up, for our own words only: an agent's or server's id keeps its case. */
const capital = (s: string) =>
  /^(you|the|someone|server|gateway)\b/.test(s) ? s.charAt(0).toUpperCase() + s.slice(1) : s;
const lower = (s: string) => s.toLowerCase().replace(/_/g, ' ');

function toolOf(record: SentenceRecord): string {
  const server = record.target?.server_id ?? '';
  const tool = record.target?.tool_name ?? '';
  if (server && tool) return `${server}.${tool}`;
  return tool || server || 'a tool';
}

function serverOf(record: SentenceRecord): string {
  return record.target?.server_id || 'a server';
}

/** How a call was allowed (TOOL_EXECUTED `approval`), as the end of a sentence. */
const APPROVAL_CLAUSE: Record<string, (server: string) => string> = {
  once: () => 'approved once by you',
  session: () => 'approved by you for this session',
  server_session: (server) => `approved by you for all of ${server} this session`,
  always: () => 'approved by you always in this workspace',
  persistent_grant: () => 'allowed by your standing approval',
  session_grant: () => 'allowed by your approval for this session',
  server_session_grant: (server) => `allowed by your approval of ${server} for this session`,
  config_rule: () => 'allowed by a rule in mgp.toml',
  auto_approve: () => 'approved automatically by the approval policy',
};

/** A tool-call approval's scope (PERMISSION_* `scope`, TOOL_EXECUTED `approval`) in the table's words. */
const SCOPE_WORDS: Record<string, string> = {
  once: 'Allowed once',
  session: 'Allowed this session',
  server_session: 'Whole server, this session',
  always: 'Always (this workspace)',
  deny: 'Denied',
  policy_denied: 'Denied by policy',
  persistent_grant: 'Standing approval',
  session_grant: 'Approved this session',
  server_session_grant: 'Server approved this session',
  config_rule: 'Rule in mgp.toml',
  auto_approve: 'Auto-approved',
  not_required: 'No approval needed',
};

const VALIDATOR_NAMES: Record<string, string> = {
  sandbox: 'the sandbox check',
  readonly: 'the read-only check',
  network_restricted: 'the network check',
  code_safety: 'the code-safety check',
  shell: 'the shell validator',
};

function validatorName(name: string): string {
  return VALIDATOR_NAMES[name] ?? `the ${name.replace(/_/g, ' ')} validator`;
}

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

function executed(r: SentenceRecord, d: Record<string, unknown>): string {
  const who = actorName(r.actor);
  const server = serverOf(r);
  const called = `${capital(who)} called ${toolOf(r)}`;
  const result = r.result.toUpperCase();
  if (result === 'FAILURE') {
    const error = text(d.error);
    const fallback = text(d.fallback_tool);
    return `${called}; it failed${error ? `: ${error}` : ''}${fallback ? ` (${fallback} was tried instead)` : ''}`;
  }
  const parts = [called];
  if (result === 'ERROR') parts.push('the tool answered with an error');
  if (d.cancelled === true) parts.push('cancelled');
  const approval = APPROVAL_CLAUSE[text(d.approval)];
  if (approval) parts.push(approval(server));
  return parts.join('; ');
}

const BLOCK_REASONS: Record<string, (r: SentenceRecord, d: Record<string, unknown>) => string> = {
  access_denied: (r) => `${agentName(r.actor?.id ?? '')} has no access to ${serverOf(r)}`,
  operator_only: () => 'it is for people only, not agents',
  invalid_arguments: (_, d) =>
    `its arguments do not match the tool's input${text(d.problem) ? ` (${text(d.problem)})` : ''}`,
  permission_denied: (_, d) =>
    `it needs ${list(d.permissions).join(', ') || 'a permission'}, which you denied`,
  approval_denied: (_, d) => `it was not approved${text(d.why) ? ` (${text(d.why)})` : ''}`,
  validation_failed: (_, d) => {
    const names = list(d.validators).map(validatorName);
    return `${names.length ? names.join(' and ') : "the kernel's checks"} refused its arguments`;
  },
  server_turned_off: (r) => `you turned ${serverOf(r)} off`,
  tool_turned_off: () => 'you turned it off',
};

function blocked(r: SentenceRecord, d: Record<string, unknown>): string {
  const reason = text(d.reason);
  if (reason === 'unknown_tool')
    return `${capital(actorName(r.actor))} called ${toolOf(r)}, which does not exist`;
  const why = BLOCK_REASONS[reason]?.(r, d) ?? (reason ? lower(reason) : '');
  return `${toolOf(r)} was blocked for ${actorName(r.actor)}${why ? `: ${why}` : ''}`;
}

function validationFailed(r: SentenceRecord, d: Record<string, unknown>): string {
  const violations = Array.isArray(d.violations)
    ? (d.violations as { validator?: unknown; message?: unknown }[])
    : [];
  const first = violations[0];
  if (!first) return `${toolOf(r)} was blocked by the kernel's checks`;
  const message = text(first.message);
  const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : '';
  return `${toolOf(r)} was blocked by ${validatorName(text(first.validator))}${message ? `: ${message}` : ''}${more}`;
}

function codeRejected(r: SentenceRecord, d: Record<string, unknown>): string {
  const rejection = (d.rejection ?? {}) as { reason?: unknown; violations?: unknown };
  const why = text(list(rejection.violations)[0]) || text(rejection.reason);
  return `The code sent to ${toolOf(r)} was rejected by the code-safety check${why ? `: ${why}` : ''}`;
}

function permissionEvent(r: SentenceRecord, d: Record<string, unknown>): string {
  const type = r.event_type;
  const who = actorName(r.actor);
  if (d.kind === 'server_permission') {
    const permission = text(d.permission) || 'a permission';
    if (type === 'PERMISSION_REVOKED')
      return `${capital(who)} withdrew ${permission} from ${serverOf(r)}`;
    if (r.result.toUpperCase() === 'DEFERRED')
      return `${serverOf(r)} asked for ${permission}; the answer was put off`;
    const verb = type === 'PERMISSION_GRANTED' ? 'granted' : 'denied';
    const by =
      d.decided_by === 'policy' || r.actor?.type === 'kernel'
        ? 'The approval policy'
        : capital(who);
    return `${by} ${verb} ${serverOf(r)} the permission ${permission}`;
  }
  const scope = text(d.scope);
  const requester = text(d.requested_by) ? agentName(text(d.requested_by)) : '';
  const forWhom = requester && requester !== 'you' ? ` for ${requester}` : '';
  if (type === 'PERMISSION_REVOKED') {
    if (scope === 'server_session')
      return `${capital(who)} revoked this session's approval of all of ${serverOf(r)}`;
    const which = scope === 'session' ? "this session's" : 'the standing';
    return `${capital(who)} revoked ${which} approval of ${toolOf(r)}`;
  }
  if (type === 'PERMISSION_DENIED') {
    if (scope === 'policy_denied' || r.actor?.type === 'kernel')
      return `The approval policy refused ${toolOf(r)}${forWhom}${text(d.reason) ? `: ${text(d.reason)}` : ''}`;
    return `${capital(who)} denied ${toolOf(r)}${forWhom}`;
  }
  const how: Record<string, string> = {
    once: 'once',
    session: 'for this session',
    server_session: `with all of ${serverOf(r)} for this session`,
    always: 'always in this workspace',
  };
  return `${capital(who)} approved ${toolOf(r)}${forWhom}${how[scope] ? ` ${how[scope]}` : ''}`;
}

function accessEvent(r: SentenceRecord, d: Record<string, unknown>): string {
  const who = capital(actorName(r.actor));
  const agent = agentName(text(d.agent_id));
  const target = r.target?.tool_name ? toolOf(r) : serverOf(r);
  if (r.event_type === 'ACCESS_REVOKED')
    return `${who} removed the access rule of ${agent} to ${target}`;
  const until = text(d.expires_at) ? ` until ${text(d.expires_at)}` : '';
  return d.permission === 'deny' || r.result.toUpperCase() === 'DENY'
    ? `${who} denied ${agent} access to ${target}${until}`
    : `${who} gave ${agent} access to ${target}${until}`;
}

/** Outcome words for custom events: "SUCCESS" → nothing to add, "DENIED" → "denied". */
function outcome(result: string): string {
  const r = result.toUpperCase();
  return r === 'SUCCESS' || r === 'OK' || r === '' ? '' : lower(result);
}

function withOutcome(sentence: string, result: string): string {
  const word = outcome(result);
  return word ? `${sentence}: ${word}` : sentence;
}

const MCPL_WORDS: Record<string, string> = {
  feature_sets: 'changed its feature sets',
  scope: 'asked for more scope',
  state: 'saved state',
  push_event: 'pushed an event',
  context_hook: 'added context',
  inference: 'asked for an inference',
  model_info: 'asked which model runs',
  channel: 'used a channel',
};

const KERNEL_EVENTS: Record<string, (r: SentenceRecord, d: Record<string, unknown>) => string> = {
  'dev.mgp-kernel.tool_retried': (r, d) =>
    `${toolOf(r)} was tried again${typeof d.attempt === 'number' ? ` (attempt ${d.attempt})` : ''}${text(d.error) ? ` after: ${text(d.error)}` : ''}`,
  'dev.mgp-kernel.resource_read': (r, d) =>
    withOutcome(
      `${capital(actorName(r.actor))} read ${text(d.uri) || 'a resource'} from ${serverOf(r)}`,
      r.result,
    ),
  'dev.mgp-kernel.prompt_get': (r, d) =>
    withOutcome(
      `${capital(actorName(r.actor))} got the prompt ${text(d.prompt) || ''} from ${serverOf(r)}`.replace(
        '  ',
        ' ',
      ),
      r.result,
    ),
  'dev.mgp-kernel.server_registration': (r) =>
    r.result.toUpperCase() === 'DENIED'
      ? `Registering the server ${serverOf(r)} was refused`
      : `${capital(actorName(r.actor))} registered the server ${serverOf(r)}`,
  'dev.mgp-kernel.server_deregistration': (r) =>
    `${capital(actorName(r.actor))} removed the server ${serverOf(r)}`,
  'dev.mgp-kernel.task_result': (r, d) =>
    withOutcome(
      `A task of ${toolOf(r)} ended${d.output_schema_mismatch ? ', its result not matching the output schema' : ''}`,
      r.result,
    ),
  'dev.mgp-kernel.sampling': (r) =>
    withOutcome(`${serverOf(r)} asked the model for a completion`, r.result),
  'dev.mgp-kernel.llm_completion': (r) =>
    withOutcome(`${serverOf(r)} asked the kernel for an LLM completion`, r.result),
  'dev.mgp-kernel.switched': (r) =>
    `${capital(actorName(r.actor))} turned ${r.target?.tool_name ? toolOf(r) : serverOf(r)} ${r.result.toUpperCase() === 'ENABLED' ? 'on' : 'off'}`,
  'dev.mgp-kernel.server_reported': (r, d) =>
    `${serverOf(r)} reported ${text(d.reported_event_type) || 'an event'}${text(d.reported_result) ? ` (${lower(text(d.reported_result))})` : ''}`,
  'dev.mgp-kernel.server_audit_dropped': (r, d) =>
    `The kernel dropped ${typeof d.dropped === 'number' ? d.dropped : 'some'} audit reports from ${serverOf(r)}: too many at once`,
  TOOL_CREATED_DYNAMIC: (r) =>
    r.result.toUpperCase() === 'BLOCKED'
      ? `${capital(actorName(r.actor))} generated the tool ${r.target?.tool_name ?? ''}; its code was refused`
      : `${capital(actorName(r.actor))} created the temporary tool ${r.target?.tool_name ?? ''}`,
  SERVER_CONNECTED: (r) => `${serverOf(r)} started and connected`,
  SERVER_DISCONNECTED: (r, d) => {
    const reason = text(d.reason) || r.result;
    return `${serverOf(r)} stopped${reason && reason.toUpperCase() !== 'DISCONNECTED' ? ` (${lower(reason)})` : ''}`;
  },
};

/**
 * An event type or result as the log stores it in words, for the table and its menus:
 * TOOL_EXECUTED is "Tool executed"; a custom type in reverse-domain notation
 * (dev.mgp-kernel.switched, MGP §6.4) is its last part in words with its namespace after it.
 */
export function auditTypeWords(type: string): string {
  const dot = type.lastIndexOf('.');
  if (dot > 0 && dot < type.length - 1)
    return `${auditTypeWords(type.slice(dot + 1))} (${type.slice(0, dot)})`;
  const words = type.toLowerCase().replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : type;
}

/** The record as one sentence, without a final period. */
export function auditSentence(record: SentenceRecord): string {
  const d = record.details ?? {};
  const type = record.event_type;
  switch (type) {
    case 'TOOL_EXECUTED':
      return executed(record, d);
    case 'TOOL_BLOCKED':
      return blocked(record, d);
    case 'VALIDATION_FAILED':
      return validationFailed(record, d);
    case 'CODE_REJECTED':
      return codeRejected(record, d);
    case 'PERMISSION_GRANTED':
    case 'PERMISSION_DENIED':
    case 'PERMISSION_REVOKED':
      return permissionEvent(record, d);
    case 'ACCESS_GRANTED':
    case 'ACCESS_REVOKED':
      return accessEvent(record, d);
  }
  // Sentences may start with a server's or tool's id, which keeps its own case.
  const known = KERNEL_EVENTS[type];
  if (known) return known(record, d);
  const mcpl = /^dev\.mgp-kernel\.mcpl\.(.+)$/.exec(type);
  if (mcpl)
    return withOutcome(
      `${serverOf(record)} ${MCPL_WORDS[mcpl[1]] ?? lower(mcpl[1])}`,
      record.result,
    );
  const target = record.target?.server_id ? ` on ${toolOf(record)}` : '';
  return capital(
    withOutcome(
      `${capital(actorName(record.actor))}: ${lower(type.split('.').pop() ?? type)}${target}`,
      record.result,
    ),
  );
}

/** The permission or approval scope a record is about, for the table's column; '' when none. */
export function auditPermission(record: SentenceRecord): string {
  const d = record.details ?? {};
  switch (record.event_type) {
    case 'PERMISSION_GRANTED':
    case 'PERMISSION_DENIED':
    case 'PERMISSION_REVOKED':
      if (d.kind === 'server_permission') return text(d.permission);
      return SCOPE_WORDS[text(d.scope)] ?? text(d.scope);
    case 'TOOL_EXECUTED':
      return SCOPE_WORDS[text(d.approval)] ?? text(d.approval);
    case 'TOOL_BLOCKED':
      if (d.reason === 'permission_denied') return list(d.permissions).join(', ');
      if (d.reason === 'approval_denied') return 'Not approved';
      if (d.reason === 'access_denied' || d.reason === 'operator_only') return 'No access';
      return '';
    case 'ACCESS_GRANTED':
      return `Access: ${text(d.permission) || lower(record.result)}`;
    case 'ACCESS_REVOKED':
      return 'Access rule removed';
  }
  return '';
}
