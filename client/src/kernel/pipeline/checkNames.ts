/**
 * The checks of the call pipeline that can refuse a call, each with the words a person or a model
 * reads and the section that asks for it. A refusal names its check so that whoever called (Run Tool,
 * an agent, a gateway client) can say which check stopped the call and what would let it through.
 */
export interface CheckName {
  /** What the check is, in a few words. */
  label: string;
  /** The section of the specification behind it, if one is. */
  section?: string;
  /** What would let a call through, or what to do instead. */
  remedy: string;
}

const CHECKS: Readonly<Record<string, CheckName>> = {
  tool_lookup: {
    label: 'tool lookup',
    section: 'MGP §14.3',
    remedy: 'call a tool that exists; mgp.tools.discover finds one for a task',
  },
  launch_approval: {
    label: 'your approval to start this server',
    remedy:
      'the user has not allowed this server to start; they can allow it in the editor or with mgp servers allow',
  },
  managed_policy: {
    label: "your organisation's managed policy",
    remedy:
      'the machine-wide policy does not let this server start; nobody below it can change that, use another server',
  },
  turned_off: {
    label: 'your switch for this tool',
    remedy: 'the user turned it off; ask them to turn it on, or use another tool',
  },
  access: {
    label: 'access control',
    section: 'MGP §5',
    remedy: 'this caller may not use the tool; do not call it again, tell the user',
  },
  input_schema: {
    label: "the tool's input schema",
    section: 'MCP tools/call',
    remedy: 'correct the arguments to fit the schema and call again',
  },
  permissions: {
    label: 'permissions',
    section: 'MGP §3',
    remedy: 'the operator denied a permission the tool needs; tell the user what you wanted to do',
  },
  approval: {
    label: 'approval',
    section: 'MGP §3, §4.3',
    remedy:
      'the call was not approved; do not call it again with the same arguments, tell the user what you wanted to do',
  },
  validators: {
    label: 'kernel validators',
    section: 'MGP §7',
    remedy:
      'the arguments were judged unsafe; do not retry them unchanged, change the approach or tell the user',
  },
  code_safety: {
    label: 'code safety',
    section: 'MGP §7.4',
    remedy: 'rewrite the code without what the rejection names',
  },
  'mcpl.feature_set': {
    label: 'feature set switch',
    section: 'MCPL §6.6',
    remedy: 'the feature set is switched off; ask the user to switch it on',
  },
  'mcpl.scope': {
    label: 'scoped access',
    section: 'MCPL §7.7',
    remedy: 'the scope was refused; do not retry the same target, tell the user',
  },
};

export function checkName(check: string): CheckName {
  return CHECKS[check] ?? { label: check, remedy: 'read the reason; retry only if it can succeed' };
}

/** "access control (MGP §5)": the check as one phrase. */
export function checkPhrase(check: string): string {
  const { label, section } = checkName(check);
  return section ? `${label} (${section})` : label;
}
