// Fifteen real MCP servers from npm, as one fleet behind the kernel: server-everything over stdio,
// Streamable HTTP and legacy SSE, and the servers of tools/servers and the repository's own
// devDependencies. `fleetWorkspace()` writes an mgp.toml naming them all (or some) in a fresh
// folder and starts the two HTTP servers the config points at.
//
// Needs `tools/servers` installed (scripts/setup.sh). Only loopback is reachable here: the servers
// whose job is the network (github, notion, context7, kubernetes) start and list their tools.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const root = resolve(new URL('../..', import.meta.url).pathname);
const pkg = (path) => join(root, 'tools/servers/node_modules', path);
const dev = (path) => join(root, 'node_modules', path);
const everything = dev('@modelcontextprotocol/server-everything/dist/index.js');

/** Each server: its id, how it starts (stdio args, or the HTTP kind of server-everything), its env. */
export const FLEET = [
  { id: 'everything', args: [everything, 'stdio'] },
  { id: 'everything-http', http: 'streamableHttp' },
  { id: 'everything-sse', http: 'sse' },
  {
    id: 'filesystem',
    args: [dev('@modelcontextprotocol/server-filesystem/dist/index.js'), '{ws}'],
  },
  {
    id: 'memory',
    args: [dev('@modelcontextprotocol/server-memory/dist/index.js')],
    env: { MEMORY_FILE_PATH: '{ws}/memory.jsonl' },
  },
  {
    id: 'sequential-thinking',
    args: [pkg('@modelcontextprotocol/server-sequential-thinking/dist/index.js')],
  },
  { id: 'desktop-commander', args: [pkg('@wonderwhy-er/desktop-commander/dist/index.js')] },
  {
    id: 'playwright',
    args: [
      pkg('@playwright/mcp/cli.js'),
      '--headless',
      '--browser',
      'chromium',
      '--executable-path',
      '/usr/bin/chromium',
    ],
  },
  { id: 'kubernetes', args: [pkg('mcp-server-kubernetes/dist/index.js')] },
  { id: 'chart', args: [pkg('@antv/mcp-server-chart/build/index.js')] },
  {
    id: 'git',
    args: [pkg('@cyanheads/git-mcp-server/dist/index.js')],
    env: { GIT_BASE_DIR: '{ws}' },
  },
  { id: 'context7', args: [pkg('@upstash/context7-mcp/dist/index.js')] },
  {
    id: 'notion',
    args: [pkg('@notionhq/notion-mcp-server/bin/cli.mjs')],
    env: { NOTION_TOKEN: 'not-a-token' },
  },
  {
    id: 'github',
    args: [pkg('@modelcontextprotocol/server-github/dist/index.js')],
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'not-a-token' },
  },
  { id: 'code-runner', args: [pkg('mcp-server-code-runner/dist/cli.js')] },
];

export function freePort() {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** server-everything over HTTP on a free loopback port, once it says it listens. */
async function httpEverything(kind) {
  const port = await freePort();
  const child = spawn(process.execPath, [everything, kind], {
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise((ready, fail) => {
    child.stderr.on('data', (chunk) => /listening|running/i.test(String(chunk)) && ready());
    child.on('exit', (code) => fail(new Error(`server-everything ${kind} exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}${kind === 'sse' ? '/sse' : '/mcp'}`;
  return { url, child };
}

const q = (value) => JSON.stringify(value);

function serverToml(server, ws, url, extra) {
  const fill = (text) => text.replaceAll('{ws}', ws);
  const lines = ['[[servers]]', `id = ${q(server.id)}`];
  if (server.http) lines.push(`transport = ${q(server.http === 'sse' ? 'sse' : 'http')}`);
  if (server.http) lines.push(`url = ${q(url)}`);
  else {
    lines.push(`command = ${q(process.execPath)}`);
    lines.push(`args = [${server.args.map((arg) => q(fill(arg))).join(', ')}]`);
  }
  lines.push(...extra);
  const env = Object.entries(server.env ?? {});
  if (env.length) lines.push('[servers.env]', ...env.map(([k, v]) => `${k} = ${q(fill(v))}`));
  return lines.join('\n');
}

/**
 * A folder with an mgp.toml of the fleet's servers (`ids`, else all), each with the lines `extra`
 * adds (e.g. `connect_timeout_secs = 60`); the HTTP servers it names are started and stopped by
 * `close()`. `env` is what `mgp` needs to run there without asking: the servers approved, the
 * state kept in the folder.
 */
export async function fleetWorkspace({ ids, extra = [] } = {}) {
  const servers = FLEET.filter((server) => !ids || ids.includes(server.id));
  const dir = mkdtempSync(join(tmpdir(), 'mgp-fleet-'));
  const ws = join(dir, 'ws');
  mkdirSync(ws);
  const http = await Promise.all(
    servers.filter((server) => server.http).map((server) => httpEverything(server.http)),
  );
  const urls = new Map(servers.filter((s) => s.http).map((s, i) => [s.id, http[i].url]));
  const toml = servers.map((server) => serverToml(server, ws, urls.get(server.id), extra));
  writeFileSync(join(ws, 'mgp.toml'), `${toml.join('\n\n')}\n`);
  return {
    ws,
    servers,
    env: {
      ...process.env,
      MGP_PREAPPROVED_SERVERS: '*',
      XDG_STATE_HOME: join(dir, 'state'),
    },
    close() {
      for (const { child } of http) child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
