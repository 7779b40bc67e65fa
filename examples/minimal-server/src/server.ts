/**
 * A minimal MGP server: an ordinary MCP server on the official SDK, with MGP added by the server
 * kit. It reaches MGP Tier 2: `mgp validate server -- node examples/minimal-server/dist/server.js`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { enableMgp, ErrorCodes, mgpError } from 'mgp-server-kit';
import { z } from 'zod';

const server = new McpServer({ name: 'minimal-notes', version: '0.1.0' });

// MGP in one call: what the server needs (§3) and how far to trust it (§2.3).
const mgp = enableMgp(server, {
  permissions: ['memory.write'],
  trustLevel: 'standard',
  serverId: 'minimal-notes',
});

const notes: string[] = [];

// Tools are written as for any MCP server; MGP only adds their security metadata (§4).
server.registerTool(
  'add_note',
  {
    description: 'Stores a note.',
    inputSchema: { text: z.string().min(1).describe('The note') },
  },
  async ({ text }) => {
    notes.push(text);
    return { content: [{ type: 'text', text: `Stored note ${notes.length}` }] };
  },
);
mgp.secure('add_note', {
  risk_level: 'moderate',
  permissions_required: ['memory.write'],
  side_effects: ['database'],
});

server.registerTool(
  'list_notes',
  {
    description: 'Lists the stored notes.',
    annotations: { readOnlyHint: true },
    outputSchema: { notes: z.array(z.string()) },
  },
  async () => ({
    content: [{ type: 'text', text: notes.join('\n') || 'No notes yet.' }],
    structuredContent: { notes },
  }),
);
mgp.secure('list_notes', { risk_level: 'safe' });

server.registerTool(
  'get_note',
  { description: 'Returns one note by its number.', inputSchema: { number: z.number().int() } },
  async ({ number }) => {
    const note = notes[number - 1];
    // A structured MGP error (§14): the client learns the category and whether to retry.
    if (note === undefined) throw mgpError(ErrorCodes.InvalidToolArgs, `No note ${number}`);
    return { content: [{ type: 'text', text: note }] };
  },
);
mgp.secure('get_note', { risk_level: 'safe' });

server.connect(new StdioServerTransport()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
