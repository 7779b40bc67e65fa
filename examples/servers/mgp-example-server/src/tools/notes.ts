import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/**
 * Notes kept in memory for the life of the process: a tool with a side effect (write_note) next to a
 * read-only one (list_notes), so approval policies have something real to act on.
 */
export function registerNotesTools(server: McpServer): void {
  const notes: { title: string; body: string; at: string }[] = [];

  server.registerTool(
    'write_note',
    {
      title: 'Write a note',
      description: 'Stores a note with a title and a body. Overwrites a note with the same title.',
      inputSchema: { title: z.string().min(1), body: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ title, body }) => {
      const existing = notes.findIndex((note) => note.title === title);
      const note = { title, body, at: new Date().toISOString() };
      if (existing >= 0) notes[existing] = note;
      else notes.push(note);
      return { content: [{ type: 'text', text: `${existing >= 0 ? 'Replaced' : 'Stored'} note "${title}" (${notes.length} in all)` }] };
    },
  );

  server.registerTool(
    'list_notes',
    {
      title: 'List notes',
      description: 'Lists the stored notes, newest first.',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => ({
      content: [{ type: 'text', text: notes.length ? [...notes].reverse().map((n) => `${n.title}: ${n.body}`).join('\n') : 'No notes yet.' }],
    }),
  );
}
