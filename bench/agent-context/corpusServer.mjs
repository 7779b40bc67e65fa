// One server of the discovery corpus (test/fixtures/discovery/corpus.json) served over stdio: its
// tools listed exactly as the real package lists them, every call answered at once with a short
// text. The agent-context benchmark runs the seventeen of them as real server processes behind the
// kernel, so the tokens counted are those of real tool definitions.
//   node corpusServer.mjs SERVER_ID
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const id = process.argv[2];
const corpus = JSON.parse(
  readFileSync(new URL('../../test/fixtures/discovery/corpus.json', import.meta.url), 'utf8'),
);
const entry = corpus.servers.find((s) => s.id === id);
if (!entry) throw new Error(`no server "${id}" in the corpus`);

const server = new Server(
  { name: `corpus-${id}`, version: '1.0.0' },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: entry.tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: `${id}.${request.params.name} done` }],
}));
await server.connect(new StdioServerTransport());
