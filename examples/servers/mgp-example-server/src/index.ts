/**
 * The example server MGP Kernel runs on by default. To a plain MCP client it is the small server it
 * always was (echo, add, write_note, list_notes, a resource and a prompt); to a client that sends
 * `capabilities.mgp` it is an MGP 0.5.2 server with security metadata, permissions, streaming,
 * callbacks, events, audit intake, structured errors and lifecycle notifications. stdout carries the
 * protocol only; logs go to stderr. Flags: see options.ts.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { parseOptions } from './options';
import { createExampleServer } from './server';

async function main(): Promise<void> {
  const { server, stop } = createExampleServer(parseOptions(process.argv.slice(2)));
  server.onclose = stop;
  await server.connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  console.error('mgp-example-server failed:', error);
  process.exit(1);
});
