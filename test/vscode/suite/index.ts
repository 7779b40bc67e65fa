// Entry VS Code loads as extensionTestsPath: runs the *.test.js files beside it with mocha and
// writes the results where the harness reads them (mocha's own output reaches only the browser console).
import { writeFileSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

interface TestResult {
  title: string;
  state: 'passed' | 'failed';
  error?: string;
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 300000, color: false });
  for (const file of readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort()) {
    mocha.addFile(join(__dirname, file));
  }
  const tests: TestResult[] = [];
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const passed = tests.filter((t) => t.state === 'passed').length;
      const resultsFile = process.env.MGP_TEST_RESULTS;
      if (resultsFile)
        writeFileSync(
          resultsFile,
          JSON.stringify({ passed, failed: tests.length - passed, tests }, null, 2),
        );
      if (failures > 0) reject(new Error(`${failures} test(s) failed`));
      else resolve();
    });
    runner.on('pass', (test) => tests.push({ title: test.fullTitle(), state: 'passed' }));
    runner.on('fail', (test, error: Error) =>
      tests.push({ title: test.fullTitle(), state: 'failed', error: error.stack ?? error.message }),
    );
  });
}
