import { strict as assert } from 'node:assert';
import { fallbackValidators, runValidators } from '../../../client/src/kernel/security/validators';
import type { ToolSecurity, ValidatorName } from '../../../client/src/kernel/domain/security';

/** desktop-commander 0.2.52's `interact_with_process`, as its tools/list describes it. */
const INTERACT = {
  name: 'interact_with_process',
  description:
    'Send input to an existing terminal or REPL process and return newly available output.\n' +
    'Useful for interactive shells, Python/Node/R/Julia REPLs, database consoles, and long-running ' +
    'commands started with start_process().',
  inputSchema: {
    type: 'object',
    properties: {
      pid: { type: 'number' },
      input: { type: 'string' },
      timeout_ms: { type: 'number' },
      wait_for_prompt: { type: 'boolean' },
      verbose_timing: { type: 'boolean' },
    },
    required: ['pid', 'input'],
  },
};
const PLAIN: ToolSecurity = { risk_level: 'moderate', permissions_required: [], side_effects: [] };

async function typedRules(
  tool: { name: string; description: string; inputSchema: Record<string, unknown> },
  args: Record<string, unknown>,
): Promise<string[]> {
  const names = fallbackValidators(tool.name, tool.description, tool.inputSchema);
  const outcome = await runValidators(names, {
    toolName: tool.name,
    args,
    security: PLAIN,
    inputSchema: tool.inputSchema,
    description: tool.description,
  });
  return outcome.violations.map((v) => `${v.validator}:${v.rule}`);
}

describe('fallback validators for plain MCP tools (MGP §17.2)', () => {
  const byName: [string, ValidatorName[]][] = [
    ['execute_command', ['sandbox']],
    ['run_shell', ['sandbox']],
    ['bash', ['sandbox']],
    ['exec', ['sandbox']],
    ['terminal_run', ['sandbox']],
    ['runPowerShell', ['sandbox']],
    ['ssh_exec', ['sandbox']],
    ['run_python', ['code_safety']],
    ['execute_code', ['code_safety']],
    ['eval_js', ['code_safety']],
    ['run_code', ['code_safety']],
    ['python', ['code_safety']],
    ['node_repl', ['code_safety']],
    ['run_shell_script', ['sandbox', 'code_safety']],
    ['fetch', ['network_restricted']],
    ['http_request', ['network_restricted']],
    ['browser_navigate', ['network_restricted']],
    ['download_file', ['network_restricted']],
    ['scrape_page', ['network_restricted']],
    ['read_query', ['readonly']],
    ['query', ['readonly']],
    ['list_sql_tables', ['readonly']],
    ['write_query', []],
    ['execute_sql', []],
    ['create_issue', []],
    ['git_push', []],
    ['format_code', []],
    ['search_files', []],
    ['get_weather', []],
  ];
  for (const [name, expected] of byName) {
    it(`${name} → ${expected.length ? expected.join(', ') : 'nothing'}`, () => {
      assert.deepEqual(fallbackValidators(name), expected);
    });
  }

  it('reads argument names from the input schema', () => {
    assert.deepEqual(
      fallbackValidators('do_it', '', { properties: { command: { type: 'string' } } }),
      ['sandbox'],
    );
    assert.deepEqual(
      fallbackValidators('do_it', '', { properties: { source_code: { type: 'string' } } }),
      ['code_safety'],
    );
    assert.deepEqual(
      fallbackValidators('preview', '', { properties: { url: { type: 'string' } } }),
      ['network_restricted'],
    );
    assert.deepEqual(
      fallbackValidators('ping_service', '', { properties: { webhookUrl: { type: 'string' } } }),
      ['network_restricted'],
    );
    assert.deepEqual(
      fallbackValidators('save_note', '', { properties: { title: {}, body: {} } }),
      [],
    );
  });

  it('reads the description', () => {
    assert.deepEqual(fallbackValidators('helper', 'Runs a shell command in the workspace'), [
      'sandbox',
    ]);
    assert.deepEqual(fallbackValidators('helper', 'Executes Python code in a kernel'), [
      'code_safety',
    ]);
    assert.deepEqual(fallbackValidators('helper', 'Fetches the contents of a URL'), [
      'network_restricted',
    ]);
    assert.deepEqual(fallbackValidators('db_sql', 'Read-only SQL against the warehouse'), [
      'readonly',
    ]);
    assert.deepEqual(fallbackValidators('helper', 'Returns the URL of the created issue'), []);
  });

  it('judges input typed into a running process as a command line and as code', async () => {
    assert.deepEqual(
      fallbackValidators(INTERACT.name, INTERACT.description, INTERACT.inputSchema),
      ['sandbox', 'code_safety'],
    );
    const refused = [
      'rm --rec /tmp/project',
      'bash -c -- \'r""m -rf ~\'',
      'echo x >> ${HOME:?}/.bashrc',
      'import subprocess',
    ];
    for (const input of refused)
      assert.notDeepEqual(await typedRules(INTERACT, { pid: 7, input }), [], input);
    for (const input of ['ls -la', 'git status', 'rm build/tmp.o', 'x = 5'])
      assert.deepEqual(await typedRules(INTERACT, { pid: 7, input }), [], input);
    const session = {
      name: 'send_keys',
      description: 'Writes text into the stdin of a running shell session.',
      inputSchema: { properties: { session_id: { type: 'string' }, text: { type: 'string' } } },
    };
    assert.deepEqual(await typedRules(session, { session_id: 'a-1', text: 'rm --rec x' }), [
      'sandbox:recursive_delete',
    ]);
  });

  it('judges the argument a run verb names as a command line (run_task → task)', async () => {
    const runTask = {
      name: 'run_task',
      description: 'Runs a task.',
      inputSchema: { properties: { task: { type: 'string' }, cwd: { type: 'string' } } },
    };
    assert.deepEqual(fallbackValidators(runTask.name, runTask.description, runTask.inputSchema), [
      'sandbox',
    ]);
    assert.deepEqual(await typedRules(runTask, { task: 'rm --rec build' }), [
      'sandbox:recursive_delete',
    ]);
    assert.deepEqual(await typedRules(runTask, { task: 'npm test', cwd: 'a; b' }), []);
    // A run verb with a noun that has a validator of its own is that validator's business.
    assert.deepEqual(fallbackValidators('run_query', '', { properties: { query: {} } }), []);
  });
});
