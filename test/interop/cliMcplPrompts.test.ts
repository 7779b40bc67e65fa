import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../repoRoot';
import { startScriptedModel, type ScriptedModel } from './support/kernelHarness';

// The built `mgp` asks MCPL's questions (scope/elevate, MCPL §7.6; inference/request under `ask`,
// §11) on a terminal, a real pty from `script`, and without one denies them, saying why on stderr.

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** Runs dist/cli.js, in a pty when `tty` (its stdout then holds stderr too), typing `input`. */
function mgp(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; tty: boolean; input?: string },
): Promise<Ran> {
  const argv = [process.execPath, join(repoRoot(), 'dist/cli.js'), ...args];
  const child = options.tty
    ? spawn('script', ['-qfec', argv.map((a) => JSON.stringify(a)).join(' '), '/dev/null'], {
        cwd: options.cwd,
        env: options.env,
      })
    : spawn(argv[0], argv.slice(1), { cwd: options.cwd, env: options.env });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** The one JSON object `mgp call --json` prints (after the questions, when in a pty). */
function callResult(out: string): {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
} {
  const text = out.replace(/\r/g, '');
  // In a pty the JSON may follow the last question on its line; nested objects are indented deeper.
  const start = text.indexOf('{\n  "');
  const end = text.lastIndexOf('\n}');
  assert.ok(start >= 0 && end > start, `a JSON result in: ${out}`);
  return JSON.parse(text.slice(start, end + 2));
}

describe('mgp CLI: MCPL elevation and inference questions (built CLI, example MCPL server)', function () {
  let dir: string;
  let model: ScriptedModel;
  let env: NodeJS.ProcessEnv;
  const at = (args: string[], tty: boolean, input?: string) =>
    mgp([...args, '--cwd', dir], { cwd: dir, env, tty, input });
  const audit = async (operation: string) => {
    const tail = await at(['audit', 'tail', '-n', '500', '--json'], false);
    assert.equal(tail.code, 0, tail.err);
    return tail.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((r) => r.event_type === `dev.mgp-kernel.mcpl.${operation}`);
  };
  const access = (path: string, tty: boolean, input?: string) =>
    at(
      [
        'call',
        'live',
        'request_access',
        '--args',
        JSON.stringify({ path, reason: 'to annotate\u202e it' }),
        '--json',
      ],
      tty,
      input,
    );
  const summarize = (tty: boolean, input?: string) =>
    at(['call', 'live', 'summarize_notebook', '--json'], tty, input);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-cli-mcpl-ask-'));
    model = await startScriptedModel({
      rules: [{ match: 'Summarize these facts', reply: 'The notebook is empty.' }],
    });
    env = {
      ...process.env,
      XDG_STATE_HOME: join(dir, 'state'),
      MGP_MODEL_URL: model.url,
      MGP_MODEL: 'scripted',
    };
    const server = JSON.stringify(join(repoRoot(), 'examples/servers/dist/mcpl-example-server.js'));
    writeFileSync(
      join(dir, 'mgp.toml'),
      `[[servers]]\nid = "live"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${server}]\napproved_tools = ["request_access", "summarize_notebook"]\n\n[servers.mcpl]\nenabled_feature_sets = ["files.annotate", "assist.summarize"]\n`,
    );
    // The folder's server, allowed to start as a person would allow it.
    assert.equal((await at(['servers', 'allow', 'live'], false)).code, 0);
  });
  after(async () => {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks for a scope on a terminal, showing the payload as the server sent it; y approves, n denies', async () => {
    const allowed = await access('src/notes.md', true, 'y\n');
    assert.equal(allowed.code, 0, allowed.out);
    assert.match(allowed.out, /Allow "live" access to src\/notes\.md\?/);
    assert.match(allowed.out, /Feature set: files\.annotate/);
    assert.match(allowed.out, /── From the server \(untrusted\) ──/);
    assert.match(allowed.out, /"reason": "to annotate\\u202e it"/);
    assert.ok(!allowed.out.includes('\u202e'), 'the bidi override is shown escaped');
    assert.equal(callResult(allowed.out).structuredContent?.approved, true);

    const denied = await access('.env', true, 'n\n');
    assert.match(denied.out, /Allow "live" access to \.env\?/);
    assert.deepEqual(callResult(denied.out).structuredContent, {
      approved: false,
      reason: 'denied by the user',
    });
    const decisions = (await audit('scope')).map((r) => [
      r.details.label,
      r.result,
      r.details.decided_by,
    ]);
    assert.deepEqual(decisions, [
      ['src/notes.md', 'APPROVED', 'user'],
      ['.env', 'DENIED', 'user'],
    ]);
  });

  it('asks before the server uses the model, showing the model and the messages; y sends the answer back, n refuses', async () => {
    const allowed = await summarize(true, 'y\n');
    assert.equal(allowed.code, 0, allowed.out);
    assert.match(allowed.out, /Allow "live" to use your model "scripted/);
    assert.match(allowed.out, /Feature set: assist\.summarize/);
    assert.match(allowed.out, /Up to 200 tokens/);
    assert.match(
      allowed.out,
      /── Sent to the model, written by the server \(untrusted\) ──\s+\[user\]\s+Summarize these facts/,
    );
    const answered = callResult(allowed.out);
    assert.equal(answered.isError, undefined);
    assert.equal(answered.structuredContent?.content, 'The notebook is empty.');
    const sent = model.requests.filter((r) => JSON.stringify(r).includes('Summarize these facts'));
    assert.equal(sent.length, 1, 'the model was asked once');

    const refused = await summarize(true, 'n\n');
    assert.match(refused.out, /Allow "live" to use your model/);
    const result = callResult(refused.out);
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result), /the user denied inference for assist\.summarize/);
    assert.equal(
      model.requests.filter((r) => JSON.stringify(r).includes('Summarize these facts')).length,
      1,
      'nothing more reached the model',
    );
    const outcomes = (await audit('inference')).map((r) => r.result);
    assert.deepEqual(outcomes, ['SUCCESS', 'DENIED']);
  });

  it('without a terminal denies both, telling the operator why on stderr and the server that no one was asked', async () => {
    const scope = await access('docs/a.md', false);
    assert.equal(scope.code, 0, scope.err);
    assert.match(
      scope.err,
      /mgp: live asks for the scope "docs\/a\.md" \(files\.annotate\) and there is no terminal to ask on: denied for this run \(run it in a terminal, or list the scope in \[servers\.mcpl\.scopes\."files\.annotate"\] whitelist\)/,
    );
    assert.deepEqual(callResult(scope.out).structuredContent, {
      approved: false,
      reason: 'the question failed: mgp runs without a terminal, so no one can be asked',
    });
    // --approve is for tool calls and permissions: it lets no scope through.
    const flagged = await at(
      [
        'call',
        'live',
        'request_access',
        '--args',
        '{"path":"docs/b.md"}',
        '--approve',
        'once',
        '--json',
      ],
      false,
    );
    assert.equal(callResult(flagged.out).structuredContent?.approved, false);
    const [, , nobody, flaggedNobody] = await audit('scope');
    for (const record of [nobody, flaggedNobody]) {
      assert.equal(record.result, 'DENIED');
      assert.equal(record.details.decided_by, 'nobody');
    }

    const before = model.requests.length;
    const inference = await summarize(false);
    assert.match(
      inference.err,
      /mgp: live asks to use your model \(assist\.summarize\) and there is no terminal to ask on: denied for this run \(run it in a terminal, or set inference = "allow" in \[servers\.mcpl\]\)/,
    );
    const refused = callResult(inference.out);
    assert.equal(refused.isError, true);
    assert.match(
      JSON.stringify(refused),
      /inference for assist\.summarize was denied: mgp runs without a terminal, so no one can be asked/,
    );
    assert.equal(model.requests.length, before, 'nothing reached the model');
    const last = (await audit('inference')).at(-1);
    assert.equal(last.result, 'DENIED');
    assert.match(last.details.reason, /no one can be asked/);
  });
});
