/**
 * A process that is a kernel only in what matters here: it starts a stdio server with the kernel's
 * transport, waits until the server has started its own child, then fails with an uncaught error.
 * Usage: node orphanHost.js PIDS_FILE COMMAND ARGS...
 */
import { existsSync, watch } from 'node:fs';
import { dirname } from 'node:path';
import { FramedStdioClientTransport } from '../../../client/src/kernel/transport/contentLengthStdio';

const [pidsFile, command, ...args] = process.argv.slice(2);
const transport = new FramedStdioClientTransport({
  command,
  args,
  env: {
    ...process.env,
    MGP_FIXTURE_PIDS_FILE: pidsFile,
    MGP_FIXTURE_HANG_INITIALIZE: '1',
  } as Record<string, string>,
  framing: 'newline',
});
void transport.start().then(() => {
  const fail = () => {
    throw new Error('an uncaught error in the kernel');
  };
  if (existsSync(pidsFile)) fail();
  const watcher = watch(dirname(pidsFile), () => {
    if (!existsSync(pidsFile)) return;
    watcher.close();
    fail();
  });
});
