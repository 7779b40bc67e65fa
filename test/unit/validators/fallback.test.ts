import { strict as assert } from 'node:assert';
import { fallbackValidators } from '../../../client/src/kernel/security/validators';
import type { ValidatorName } from '../../../client/src/kernel/model/security';

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
});
