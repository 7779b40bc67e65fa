#!/usr/bin/env node
// The MCP conformance suite's client under test: `mgp` itself. The suite starts a test server for a
// scenario and runs `node mgp-client.mjs <server-url>` with MCP_CONFORMANCE_SCENARIO (and, for some
// scenarios, MCP_CONFORMANCE_CONTEXT) set. This script writes an mgp.toml naming that server, then
// runs the `mgp` commands a user would run for what the scenario exercises. Sign-in runs headless
// (MGP_OAUTH_FLOW=headless): the suite's authorization servers approve without a person.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.js');
const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
if (!serverUrl) {
  console.error('usage: mgp-client.mjs SERVER_URL (with MCP_CONFORMANCE_SCENARIO set)');
  process.exit(2);
}

/** A published Client ID Metadata Document URL, as a user would configure one (SEP-991). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const toml = (value) => JSON.stringify(value);

/** The `[servers.oauth]` table the scenario's user would write; secrets by reference. */
function oauthTable() {
  if (!scenario.startsWith('auth/')) return '';
  const lines = ['[servers.oauth]', `client_metadata_url = ${toml(CLIENT_METADATA_URL)}`];
  if (context.client_id) lines.push(`client_id = ${toml(context.client_id)}`);
  if (context.client_secret) lines.push('client_secret = "${secret:CONFORMANCE_CLIENT_SECRET}"');
  if (context.private_key_pem) {
    lines.push('private_key = "${secret:CONFORMANCE_PRIVATE_KEY}"');
    if (context.signing_algorithm)
      lines.push(`signing_algorithm = ${toml(context.signing_algorithm)}`);
  }
  if (scenario.startsWith('auth/client-credentials'))
    lines.push('grant_type = "client_credentials"');
  return lines.join('\n');
}

/** `mgp call` of one of the server's tools, approved once as a user at the terminal would. */
const call = (tool, args = {}) => [
  'call',
  'conformance',
  tool,
  '--args',
  JSON.stringify(args),
  '--approve',
  'once',
];

/** What a user runs for each kind of scenario: list the tools, or call the one the scenario checks. */
function commandFor() {
  if (scenario === 'tools_call') return call('add_numbers', { a: 5, b: 3 });
  if (scenario === 'sse-retry') return call('test_reconnection');
  if (scenario.startsWith('elicitation-sep1034'))
    return [...call('test_client_elicitation_defaults'), '--elicit', 'accept-defaults'];
  if (scenario.startsWith('auth/client-credentials')) return ['tools', '--server', 'conformance'];
  if (scenario.startsWith('auth/')) return call('test-tool');
  return ['tools', '--server', 'conformance'];
}

/** The schema `mgp tools --json` shows for one of the server's tools, as a user would read it. */
function listedSchema(mgp, tool) {
  const { status, stdout } = mgp(['tools', '--server', 'conformance', '--json'], 'pipe');
  if (status !== 0) throw new Error(`mgp tools --json exited ${status}`);
  const entry = JSON.parse(stdout).tools.find((listed) => listed.tool === tool);
  if (!entry) throw new Error(`mgp tools --json lists no tool ${tool}`);
  return entry.inputSchema;
}

/** The commands a user runs for the scenario: most take one; a round trip takes two. */
function commandsFor(mgp) {
  // The suite checks that the tool's JSON Schema 2020-12 keywords survive mgp's listing: the schema
  // mgp shows is sent back to its echo tool (SEP-1613).
  if (scenario === 'json-schema-2020-12-preservation') {
    const schema = listedSchema(mgp, 'json_schema_2020_12_tool');
    return [call('json_schema_echo', { schema })];
  }
  return [commandFor()];
}

const folder = mkdtempSync(join(tmpdir(), 'mgp-conformance-'));
try {
  const config = join(folder, 'mgp.toml');
  writeFileSync(
    config,
    [
      '[[servers]]',
      'id = "conformance"',
      `url = ${toml(serverUrl)}`,
      'transport = "http"',
      oauthTable(),
      '',
    ].join('\n'),
  );
  const env = {
    ...process.env,
    XDG_STATE_HOME: join(folder, 'state'),
    MGP_OAUTH_FLOW: 'headless',
    MGP_OAUTH_TOKEN_STORE: 'file',
    CONFORMANCE_CLIENT_SECRET: context.client_secret ?? '',
    CONFORMANCE_PRIVATE_KEY: context.private_key_pem ?? '',
  };
  const mgp = (args, stdout = 'inherit') =>
    spawnSync(process.execPath, [cli, ...args, '--config', config], {
      stdio: ['ignore', stdout, 'inherit'],
      encoding: 'utf8',
      env,
    });
  let status = 0;
  for (const args of commandsFor(mgp)) if (status === 0) status = mgp(args).status ?? 1;
  process.exitCode = status;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
