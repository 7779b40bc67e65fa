/**
 * Child process of jsonStore.test.ts: updates one document as fast as it can and prints each
 * acknowledged version ("<n>") right after its update resolved. The test kills it with SIGKILL.
 *
 * Usage: node storeWorker.js FILE
 */
import { createHash } from 'node:crypto';
import { JsonStore } from '../../../client/src/kernel/store/jsonStore';

export interface Doc {
  n: number;
  payload: string;
  digest: string;
}

export const digestOf = (n: number, payload: string): string =>
  createHash('sha256').update(`${n}:${payload}`).digest('hex');

async function main(): Promise<void> {
  const store = new JsonStore<Doc>({
    path: process.argv[2],
    defaultValue: () => ({ n: 0, payload: '', digest: digestOf(0, '') }),
  });
  await store.load();
  process.stdout.write('ready\n');
  setTimeout(() => process.exit(3), 60_000);
  for (;;) {
    // Several updates in flight at once: they must still apply one at a time.
    const burst = Array.from({ length: 4 }, () =>
      store
        .update((doc) => {
          const n = doc.n + 1;
          const payload = `${n}`.repeat(20_000 + (n % 977)); // ~100 KB, so a write takes a while
          return { n, payload, digest: digestOf(n, payload) };
        })
        .then((doc) => process.stdout.write(`${doc.n}\n`)),
    );
    await Promise.all(burst);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(2);
  });
}
