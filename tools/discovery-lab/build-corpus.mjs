// Builds test/fixtures/discovery/corpus.json (the servers the ranker was developed on) and
// test/fixtures/discovery/unseen-corpus.json (servers it has never seen, for the unseen-servers test
// set): the tools of real MCP servers published on npm.
//
// Each server is pinned in tools/discovery-lab/servers/package.json, installed only to rebuild these
// fixtures (`npm ci --prefix tools/discovery-lab/servers`), never by set-up. It is started over stdio with the official SDK
// client, given a cleared environment with dummy credentials only (no real token, no network needed
// to list tools), asked for `tools/list` (every page), and stopped. The fixture keeps, per server, the
// package name and version, and per tool its name, description, inputSchema and annotations.
//
// Run: node tools/discovery-lab/build-corpus.mjs [corpus|unseen]     (then commit the fixture)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const root = fileURLToPath(new URL('../..', import.meta.url));
const set = process.argv[2] ?? 'corpus';
if (set !== 'corpus' && set !== 'unseen')
  throw new Error('usage: node tools/discovery-lab/build-corpus.mjs [corpus|unseen]');
const out = join(
  root,
  `test/fixtures/discovery/${set === 'unseen' ? 'unseen-corpus' : 'corpus'}.json`,
);
const serversDir = join(root, 'tools/discovery-lab/servers');
if (!existsSync(join(serversDir, 'node_modules')))
  throw new Error('install the servers first: npm ci --prefix tools/discovery-lab/servers');
const work = mkdtempSync(join(tmpdir(), 'mgp-corpus-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/** id (the server_id in the index), npm package, extra arguments, dummy environment. */
const SERVERS = [
  ['filesystem', '@modelcontextprotocol/server-filesystem', [work]],
  [
    'memory',
    '@modelcontextprotocol/server-memory',
    [],
    { MEMORY_FILE_PATH: join(work, 'memory.jsonl') },
  ],
  ['sequential-thinking', '@modelcontextprotocol/server-sequential-thinking', []],
  ['github', '@modelcontextprotocol/server-github', [], { GITHUB_PERSONAL_ACCESS_TOKEN: 'dummy' }],
  ['gitlab', '@modelcontextprotocol/server-gitlab', [], { GITLAB_PERSONAL_ACCESS_TOKEN: 'dummy' }],
  [
    'slack',
    '@modelcontextprotocol/server-slack',
    [],
    { SLACK_BOT_TOKEN: 'xoxb-dummy', SLACK_TEAM_ID: 'T00000000' },
  ],
  ['brave-search', '@modelcontextprotocol/server-brave-search', [], { BRAVE_API_KEY: 'dummy' }],
  ['google-maps', '@modelcontextprotocol/server-google-maps', [], { GOOGLE_MAPS_API_KEY: 'dummy' }],
  // Lists its one tool without connecting; the URL points at a closed local port.
  ['postgres', '@modelcontextprotocol/server-postgres', ['postgresql://127.0.0.1:1/none']],
  ['everart', '@modelcontextprotocol/server-everart', [], { EVERART_API_KEY: 'dummy' }],
  ['playwright', '@playwright/mcp', []],
  ['notion', '@notionhq/notion-mcp-server', [], { NOTION_TOKEN: 'dummy' }],
  ['firecrawl', 'firecrawl-mcp', [], { FIRECRAWL_API_KEY: 'fc-dummy' }],
  ['tavily', 'tavily-mcp', [], { TAVILY_API_KEY: 'tvly-dummy' }],
  ['exa', 'exa-mcp-server', [], { EXA_API_KEY: 'dummy' }],
  ['context7', '@upstash/context7-mcp', []],
  ['everything', '@modelcontextprotocol/server-everything', ['stdio']],
];

/**
 * Servers the ranker has never seen: in neither the corpus above nor any query set written before
 * them. Their queries (queries-unseen.json) were written from these tool lists before any ranking
 * ran on them.
 */
const UNSEEN_SERVERS = [
  ['airbnb', '@openbnb/mcp-server-airbnb', ['--ignore-robots-txt']],
  ['airtable', 'airtable-mcp-server', [], { AIRTABLE_API_KEY: 'dummy' }],
  ['circleci', '@circleci/mcp-server-circleci', [], { CIRCLECI_TOKEN: 'dummy' }],
  [
    'datadog',
    '@winor30/mcp-server-datadog',
    [],
    { DATADOG_API_KEY: 'dummy', DATADOG_APP_KEY: 'dummy' },
  ],
  ['git', '@cyanheads/git-mcp-server', [], { MCP_TRANSPORT_TYPE: 'stdio', MCP_LOG_LEVEL: 'error' }],
  ['hubspot', '@hubspot/mcp-server', [], { PRIVATE_APP_ACCESS_TOKEN: 'dummy' }],
  // Reads its configuration at start: a cluster on a closed local port.
  ['kubernetes', 'mcp-server-kubernetes', [], { KUBECONFIG: join(work, 'kubeconfig') }],
  ['mongodb', 'mongodb-mcp-server', [], { MDB_MCP_TELEMETRY: 'disabled' }],
  ['sentry', '@sentry/mcp-server', ['--access-token=dummy']],
  ['youtube-transcript', '@kimtaeyoon83/mcp-server-youtube-transcript', []],
];

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters: [{ name: none, cluster: { server: "https://127.0.0.1:1" } }]
users: [{ name: none, user: { token: dummy } }]
contexts: [{ name: none, context: { cluster: none, user: none } }]
current-context: none
`;

const ListToolsResult = z.looseObject({
  tools: z.array(z.looseObject({ name: z.string() })),
  nextCursor: z.string().optional(),
});

function entryOf(pkg) {
  const dir = join(serversDir, 'node_modules', pkg);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  return { script: join(dir, bin), version: manifest.version };
}

async function listServer([id, pkg, args, env = {}]) {
  const { script, version } = entryOf(pkg);
  const home = join(work, `home-${id}`);
  mkdirSync(home, { recursive: true });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [script, ...args],
    env: { PATH: process.env.PATH ?? '', HOME: home, NODE_ENV: 'production', ...env },
    cwd: work,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'mgp-corpus', version: '0' });
  const timer = setTimeout(() => transport.close(), 30000);
  try {
    await client.connect(transport);
    const tools = [];
    let cursor;
    do {
      const page = await client.request(
        { method: 'tools/list', params: cursor ? { cursor } : {} },
        ListToolsResult,
      );
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return {
      id,
      package: pkg,
      version,
      tools: tools.map((t) => ({
        name: t.name,
        description: t.description ?? '',
        inputSchema: t.inputSchema ?? { type: 'object' },
        ...(t.annotations ? { annotations: t.annotations } : {}),
      })),
    };
  } catch (error) {
    throw new Error(`${pkg}: ${error.message}\n${stderr.slice(-1000)}`);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
  }
}

writeFileSync(join(work, 'kubeconfig'), KUBECONFIG);
const servers = [];
for (const spec of set === 'unseen' ? UNSEEN_SERVERS : SERVERS) {
  const server = await listServer(spec);
  console.log(`${server.package}@${server.version}: ${server.tools.length} tools`);
  servers.push(server);
}
const corpus = {
  description: `Tools listed over stdio from MCP servers published on npm (tools/discovery-lab/build-corpus.mjs ${set}). Regenerate with that script; do not edit by hand.`,
  servers,
};
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(corpus, null, 1) + '\n');
const total = servers.reduce((n, s) => n + s.tools.length, 0);
console.log(`\ncorpus: ${servers.length} servers, ${total} tools → ${out.slice(root.length)}`);
process.exit(0);
