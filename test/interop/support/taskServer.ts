import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../repoRoot';

/** The task example server over Streamable HTTP, on a free port it reports on stderr. */
export async function startHttpTaskServer(): Promise<{ url: string; child: ChildProcess }> {
  const script = join(repoRoot(), 'examples/servers/dist/task-example-server.js');
  const child = spawn(process.execPath, [script, '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /listening on (\S+)/.exec(err);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${err}`)));
  });
  return { url, child };
}
