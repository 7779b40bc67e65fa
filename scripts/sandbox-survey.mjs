// Which real npm servers still do their job inside the default sandbox: each is started through
// `mgp` three times in one run, sandboxed by default, sandboxed with no network, and with the
// sandbox off, and given one ordinary job (list its tools, then one call of what it is for).
// Prints a Markdown table, last.
//
//   node scripts/sandbox-survey.mjs [--only NAME]
//
// Needs `npm run build` and `tools/servers` installed (scripts/setup.sh). Only loopback is reachable
// here, so a server whose job is the network (github, kubernetes) can only show that it starts and
// lists its tools; its calls fail with the sandbox off too.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const cli = join(root, 'dist/cli.js');
const pkg = (path) => join(root, 'tools/servers/node_modules', path);
const dev = (path) => join(root, 'node_modules', path);

/** Each server: how it starts, and one job with what its answer must contain. */
const SERVERS = [
  {
    name: 'filesystem',
    args: [dev('@modelcontextprotocol/server-filesystem/dist/index.js'), '{ws}'],
    job: ['write_file', { path: '{ws}/note.md', content: 'sandboxed note' }, /Successfully wrote/],
  },
  {
    name: 'memory',
    args: [dev('@modelcontextprotocol/server-memory/dist/index.js')],
    env: { MEMORY_FILE_PATH: '{ws}/memory.jsonl' },
    job: [
      'create_entities',
      { entities: [{ name: 'kernel', entityType: 'project', observations: ['sandboxed'] }] },
      /kernel/,
    ],
  },
  {
    name: 'everything',
    args: [dev('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
    job: ['echo', { message: 'hello' }, /hello/],
  },
  {
    name: 'sequential-thinking',
    args: [pkg('@modelcontextprotocol/server-sequential-thinking/dist/index.js')],
    job: [
      'sequentialthinking',
      { thought: 'one step', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false },
      /thoughtNumber/,
    ],
  },
  {
    name: 'desktop-commander',
    args: [pkg('@wonderwhy-er/desktop-commander/dist/index.js')],
    job: ['start_process', { command: 'touch {ws}/made', timeout_ms: 5000 }, /Process started/],
    made: 'made',
  },
  {
    name: 'git',
    args: [pkg('@cyanheads/git-mcp-server/dist/index.js')],
    env: { GIT_BASE_DIR: '{ws}' },
    job: ['git_init', { path: '{ws}/repo' }, /Initialized|initialized|success/i],
  },
  {
    name: 'playwright',
    args: [
      pkg('@playwright/mcp/cli.js'),
      '--headless',
      '--browser',
      'chromium',
      '--executable-path',
      '/usr/bin/chromium',
    ],
    job: ['browser_navigate', { url: 'data:text/html,<title>sandboxed</title>' }, /sandboxed/],
  },
  {
    name: 'kubernetes',
    args: [pkg('mcp-server-kubernetes/dist/index.js')],
    job: null,
  },
  {
    name: 'github',
    args: [pkg('@modelcontextprotocol/server-github/dist/index.js')],
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'not-a-token' },
    job: null,
  },
];

const fill = (value, ws) => JSON.parse(JSON.stringify(value).replaceAll('{ws}', ws));

function toml(server, ws, variant) {
  const q = (s) => JSON.stringify(s);
  const env = Object.entries(fill(server.env ?? {}, ws))
    .map(([k, v]) => `${k} = ${q(v)}`)
    .join('\n');
  return [
    '[[servers]]',
    `id = ${q(server.name)}`,
    `command = ${q(process.execPath)}`,
    `args = [${fill(server.args, ws).map(q).join(', ')}]`,
    'connect_timeout_secs = 60',
    'request_timeout_secs = 60',
    ...(env ? ['[servers.env]', env] : []),
    ...(variant === 'off' ? ['[servers.sandbox]', 'mode = "off"'] : []),
    ...(variant === 'none' ? ['[servers.sandbox]', 'network = "none"'] : []),
  ].join('\n');
}

function mgp(args, ws, config) {
  const run = spawnSync(process.execPath, [cli, ...args, '--config', config, '--cwd', ws], {
    cwd: ws,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, MGP_PREAPPROVED_SERVERS: '*', XDG_STATE_HOME: join(ws, '..', 'state') },
  });
  return { code: run.status, stdout: run.stdout, out: `${run.stdout}\n${run.stderr}` };
}

function firstLine(text) {
  const line = text.split('\n').find((l) => /error|refus|denied|EROFS|EACCES/i.test(l)) ?? '';
  return line.replace(/\|/g, '/').slice(0, 140);
}

function trial(server, variant) {
  const dir = mkdtempSync(join(tmpdir(), `mgp-survey-${server.name}-`));
  const ws = join(dir, 'ws');
  mkdirSync(ws);
  const config = join(dir, 'servers.toml');
  writeFileSync(config, toml(server, ws, variant));
  try {
    const listed = mgp(['tools', '--server', server.name, '--json'], ws, config);
    let tools = 0;
    try {
      tools = JSON.parse(listed.stdout).tools.length;
    } catch {
      return { tools: 0, job: `no tools: ${firstLine(listed.out)}` };
    }
    if (!server.job) return { tools, job: 'listed (its job needs a network)' };
    const [tool, args, expected] = server.job;
    const called = mgp(
      ['call', server.name, tool, '--args', JSON.stringify(fill(args, ws)), '--approve', 'once'],
      ws,
      config,
    );
    const ok =
      called.code === 0 &&
      expected.test(called.out) &&
      (!server.made || existsSync(join(ws, server.made)));
    return {
      tools,
      job: ok ? 'works' : `fails: ${firstLine(called.out) || `exit ${called.code}`}`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]
  : '';
const rows = [];
for (const server of SERVERS.filter((s) => !only || s.name === only)) {
  const cells = ['default', 'none', 'off'].map((variant) => trial(server, variant));
  rows.push(`| ${server.name} | ${cells.map((c) => `${c.tools} | ${c.job}`).join(' | ')} |`);
  process.stderr.write(`${server.name}: done\n`);
}
console.log(
  '| server | tools | its job, sandboxed (default) | tools | its job, no network | tools | its job, sandbox off |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
