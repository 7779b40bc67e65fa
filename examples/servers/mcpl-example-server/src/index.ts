/**
 * An MCPL 0.4.1 example server: a notebook with checkpoints and rollback, a context hook that adds
 * the notebook to the model's context, a scoped feature set, a push event, a request for the
 * host's model, and a chat-room channel. To a plain MCP host it is a small tool server. stdout
 * carries the protocol only; logs go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcplExampleServer } from './server';

createMcplExampleServer()
  .connect(new StdioServerTransport())
  .catch((error: unknown) => {
    console.error('mcpl-example-server failed:', error);
    process.exit(1);
  });
