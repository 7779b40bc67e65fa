// `npm start`: builds and packages the extension, installs the .vsix into code-server (VS Code in the
// browser) and opens the example workspace there. Prints the URL to open. Ctrl-C stops it.
// PORT picks the port (default 8080, or a free one if that is taken).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { freePort, installVsix, prepareProfile } from '../test/vscode/harness/codeServer.mjs';
import {
  assertToolsInstalled,
  repo,
  scratchRoot,
  vsixPath,
} from '../test/vscode/harness/paths.mjs';
import { DEMO_SETTINGS, startDemoServer } from './demoServer.mjs';

async function choosePort() {
  const wanted = Number(process.env.PORT ?? 8080);
  const probe = await fetch(`http://127.0.0.1:${wanted}/`).then(
    () => true,
    () => false,
  );
  return probe ? freePort() : wanted;
}

async function main() {
  assertToolsInstalled();
  execFileSync(process.execPath, ['scripts/package.mjs'], { cwd: repo, stdio: 'inherit' });
  const dirs = prepareProfile(join(scratchRoot, 'start'), DEMO_SETTINGS);
  installVsix(dirs, vsixPath);
  const workspace = join(repo, 'examples/workspace');
  const server = await startDemoServer({ dirs, workspace, port: await choosePort() });
  console.log(`
MGP Kernel is running in VS Code (code-server) on the example workspace:

    ${server.url}/?folder=${encodeURIComponent(workspace)}

Open it in a browser, trust the workspace when asked, then click the MGP icon in the activity bar,
or run "MGP: About MGP Kernel" from the command palette (F1).

In desktop VS Code instead:
    code --extensionDevelopmentPath="${repo}" "${workspace}"       (after npm run build)
    code --install-extension "${vsixPath}"                          (the packaged extension)

code-server's log: ${join(dirs.scratch, 'code-server.log')}
Press Ctrl-C to stop.`);
  const stop = async () => {
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
