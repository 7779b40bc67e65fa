// Runs the real-VS-Code suites against the freshly packaged .vsix:
// (a) mocha inside the extension host, (b) UI scenarios driven by playwright with screenshots.
// Usage: node test/vscode/harness/run.mjs [--no-package] [--no-transpile] [--only host|ui] [--scenario NAME]
// (--no-package: the .vsix is already built; --no-transpile: out/ already holds the tests, as in npm test,
// where other suites read out/ while this one runs.)
import { execFileSync } from 'node:child_process';
import { assertToolsInstalled, repo } from './paths.mjs';
import { runHostSuite } from './hostSuite.mjs';
import { runUiScenarios } from './uiScenarios.mjs';

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const scenario = args.includes('--scenario') ? args[args.indexOf('--scenario') + 1] : undefined;

async function main() {
  assertToolsInstalled();
  if (!args.includes('--no-package')) {
    execFileSync(process.execPath, ['scripts/package.mjs'], { cwd: repo, stdio: 'inherit' });
  }
  if (!args.includes('--no-transpile'))
    execFileSync(process.execPath, ['esbuild.mjs', '--tests'], { cwd: repo, stdio: 'inherit' });
  const suites = [
    ['host', 'extension-host suite (real vscode API)', runHostSuite],
    ['ui', 'UI scenarios (workbench in chromium)', () => runUiScenarios({ only: scenario })],
  ].filter(([id]) => !only || only === id);
  let passed = 0;
  let failed = 0;
  for (const [, title, runSuite] of suites) {
    console.log(`\n${title}`);
    const started = Date.now();
    try {
      const result = await runSuite();
      passed += result.passed;
      failed += result.failed;
      console.log(
        `  ${result.passed} passed, ${result.failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
    } catch (error) {
      failed += 1;
      console.log(`  ✘ the suite could not run: ${error instanceof Error ? error.stack : error}`);
    }
  }
  console.log(`\nreal VS Code: ${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
