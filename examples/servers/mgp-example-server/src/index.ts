/**
 * The example server MGP Kernel runs on by default: a plain MCP server over stdio with a few tools,
 * a resource and a prompt. Later it grows the MGP extensions (security metadata, streaming, events).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { registerNotesTools } from './notes';

const server = new McpServer({ name: 'mgp-example-server', version: '0.1.0' });

server.registerTool(
  'echo',
  {
    title: 'Echo',
    description: 'Returns the text it is given, unchanged.',
    inputSchema: { text: z.string().describe('Text to send back') },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);

server.registerTool(
  'add',
  {
    title: 'Add numbers',
    description: 'Adds two numbers and returns the sum.',
    inputSchema: { a: z.number(), b: z.number() },
    outputSchema: { sum: z.number() },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
);

registerNotesTools(server);

server.registerResource(
  'about',
  'mgp-example://about',
  { title: 'About this server', description: 'What this example server offers', mimeType: 'text/markdown' },
  async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# mgp-example-server\nTools: echo, add, write_note, list_notes.' }],
  }),
);

server.registerPrompt(
  'summarize-notes',
  { title: 'Summarize notes', description: 'Asks the model to summarize the notes kept by this server', argsSchema: { style: z.string().optional() } },
  ({ style }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Summarize my notes${style ? ` in a ${style} style` : ''}.` } }],
  }),
);

async function main(): Promise<void> {
  await server.connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  console.error('mgp-example-server failed:', error);
  process.exit(1);
});
