/**
 * "The editor" for the tests of what attaches to it: a kernel in this process with a scripted
 * operator, serving its local socket as VS Code does (client/src/vscode/gateway/editorGateway.ts),
 * with the environment a terminal on the same folder has.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { stateDirectory } from '../../../client/src/kernel/audit/location';
import { Gateway } from '../../../client/src/kernel/gateway/gateway';
import type { MetricsText } from '../../../client/src/kernel/gateway/local/attachProtocol';
import { EditorEndpoint } from '../../../client/src/kernel/gateway/local/editorEndpoint';
import { startKernel, type TestKernel } from './kernelHarness';

export interface EditorOnSocket {
  editor: TestKernel;
  endpoint: EditorEndpoint;
  /** The environment of a terminal on the editor's folder (its state and runtime folders). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function editorOnSocket(
  config: string,
  metrics?: () => Promise<MetricsText> | undefined,
): Promise<EditorOnSocket> {
  const editor = await startKernel(config);
  const env = {
    ...(process.env as Record<string, string>),
    XDG_STATE_HOME: join(editor.dir, 'state'),
    XDG_RUNTIME_DIR: join(editor.dir, 'run'),
  };
  const gateway = new Gateway(editor.kernel, { expose: 'all' });
  const endpoint = await EditorEndpoint.listen({
    stateDir: stateDirectory({ workspaceFolder: editor.dir, env, home: homedir() }),
    folder: editor.dir,
    env,
    connect: async (transport) => void (await gateway.connect(transport)),
    metrics,
  });
  return {
    editor,
    endpoint,
    env,
    close: async () => {
      await endpoint.close();
      await gateway.close();
      await editor.dispose();
    },
  };
}
