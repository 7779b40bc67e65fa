// After everything: the kernel log shows activation and no error, and activation did not fail.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extensionId } from '../paths.mjs';

export const title = 'logs';

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

export async function run({ dirs, step }) {
  await step('the kernel log shows activation and no error', async () => {
    const logs = filesUnder(join(dirs.userData, 'logs'));
    const kernelLog = logs.find((file) => file.endsWith('MGP Kernel.log'));
    assert.ok(kernelLog, `an "MGP Kernel.log" among ${logs.length} log files`);
    const text = readFileSync(kernelLog, 'utf8');
    assert.match(text, /MGP Kernel activated/);
    assert.deepEqual(
      text.split('\n').filter((line) => line.includes('[error]')),
      [],
    );
    const hostLogs = logs
      .filter((file) => file.endsWith('exthost.log'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    assert.ok(
      !hostLogs.includes(`Activating extension '${extensionId}' failed`),
      'activation failure in exthost.log',
    );
  });
}
