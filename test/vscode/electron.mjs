// The extension-host suite on desktop VS Code, for machines that can download it (@vscode/test-electron
// fetches VS Code at run time). CI runs the offline code-server path (harness/run.mjs) instead.
// Usage: npm run build && node esbuild.mjs --tests && node test/vscode/electron.mjs
import { runTests } from '@vscode/test-electron';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo } from './harness/paths.mjs';
import { copyExampleWorkspace, freshScratch } from './harness/workspace.mjs';

const scratch = freshScratch('electron-suite');
const workspace = copyExampleWorkspace(scratch);
const results = join(scratch, 'results.json');
try {
  await runTests({
    version: '1.104.0',
    extensionDevelopmentPath: repo,
    extensionTestsPath: join(repo, 'out/test/vscode/suite/index.js'),
    launchArgs: [workspace, '--disable-workspace-trust'],
    extensionTestsEnv: { MGP_TEST_RESULTS: results },
  });
} finally {
  const { passed, failed } = JSON.parse(readFileSync(results, 'utf8'));
  console.log(`${passed} passed, ${failed} failed`);
}
