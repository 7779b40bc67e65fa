import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CorruptReport, JsonStore } from '../../../client/src/kernel/store/jsonStore';
import { Doc, digestOf } from './storeWorker';

interface Grants {
  grants: { agent: string; tool: string }[];
}

const isGrants = (value: unknown): value is Grants => Array.isArray((value as Grants)?.grants);

describe('JsonStore: a durable JSON document', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-store-'));
    path = join(dir, 'state', 'grants.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const store = (extra: Partial<ConstructorParameters<typeof JsonStore<Grants>>[0]> = {}) =>
    new JsonStore<Grants>({
      path,
      defaultValue: () => ({ grants: [] }),
      validate: isGrants,
      ...extra,
    });

  it('starts from the default when the file is missing, and writes on update', async () => {
    const s = store();
    assert.deepEqual(await s.load(), { value: { grants: [] }, status: 'missing' });
    await s.update((doc) => void doc.grants.push({ agent: 'a', tool: 't' }));
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {
      grants: [{ agent: 'a', tool: 't' }],
    });
    const again = store();
    assert.deepEqual(await again.load(), {
      value: { grants: [{ agent: 'a', tool: 't' }] },
      status: 'loaded',
    });
  });

  it('runs updates one at a time, in call order', async () => {
    const s = store();
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        s.update(async (doc) => {
          // Updates of different lengths: 0, 1 or 2 turns of the event loop.
          for (let turn = 0; turn < i % 3; turn++) await new Promise((r) => setImmediate(r));
          order.push(i);
          doc.grants.push({ agent: `a${i}`, tool: 't' });
        }),
      ),
    );
    assert.deepEqual(
      order,
      Array.from({ length: 50 }, (_, i) => i),
    );
    assert.equal(s.value.grants.length, 50);
    assert.equal((JSON.parse(readFileSync(path, 'utf8')) as Grants).grants.length, 50);
  });

  it('leaves file and value unchanged when a mutator throws', async () => {
    const s = store();
    await s.update((doc) => void doc.grants.push({ agent: 'a', tool: 't' }));
    await assert.rejects(
      s.update((doc) => {
        doc.grants.length = 0;
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    assert.equal(s.value.grants.length, 1);
    assert.equal((JSON.parse(readFileSync(path, 'utf8')) as Grants).grants.length, 1);
    assert.equal(
      (await s.update((doc) => void doc.grants.push({ agent: 'b', tool: 't' }))).grants.length,
      2,
    );
  });

  it('keeps a corrupt file aside and starts from the default, reporting it', async () => {
    await store().update((doc) => void doc.grants.push({ agent: 'a', tool: 't' }));
    writeFileSync(path, '{"grants": [ {"agent": "a"');
    const reports: CorruptReport[] = [];
    const s = store({
      onCorrupt: (r) => reports.push(r),
      now: () => new Date('2026-03-01T10:20:30.000Z'),
    });
    const result = await s.load();
    assert.equal(result.status, 'corrupt');
    assert.deepEqual(result.value, { grants: [] });
    assert.equal(result.corrupt?.movedTo, `${path}.corrupt-2026-03-01T10-20-30.000Z`);
    assert.match(result.corrupt?.reason ?? '', /not valid JSON/);
    assert.deepEqual(reports, [result.corrupt]);
    assert.equal(
      readFileSync(result.corrupt?.movedTo as string, 'utf8'),
      '{"grants": [ {"agent": "a"',
    );
    await s.update((doc) => void doc.grants.push({ agent: 'b', tool: 't' }));
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {
      grants: [{ agent: 'b', tool: 't' }],
    });
  });

  it('treats a document of the wrong shape as corrupt', async () => {
    await store().update(() => ({ grants: [] }));
    writeFileSync(path, '{"grants": 3}');
    assert.equal((await store().load()).status, 'corrupt');
  });

  it('removes temp files left by a dead writer, not those of a live one', async () => {
    await store().update(() => ({ grants: [] }));
    const dead = join(dir, 'state', `.grants.json.${2 ** 22 + 4321}.abcd1234.tmp`);
    const live = join(dir, 'state', `.grants.json.${process.pid}.abcd1234.tmp`);
    writeFileSync(dead, '{"half');
    writeFileSync(live, '{"half');
    await store().load();
    assert.deepEqual(readdirSync(join(dir, 'state')).sort(), [
      '.grants.json.' + process.pid + '.abcd1234.tmp',
      'grants.json',
    ]);
  });
});

describe('JsonStore: SIGKILL during a burst of updates', function () {
  const worker = join(__dirname, 'storeWorker.js');

  /** Runs the worker on `file`, SIGKILLs it `delayMs` after it is ready; the last acknowledged version. */
  function killAfter(file: string, delayMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [worker, file], { stdio: ['ignore', 'pipe', 'pipe'] });
      let last = 0;
      let pending = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() as string;
        for (const line of lines) {
          if (line === 'ready') setTimeout(() => child.kill('SIGKILL'), delayMs);
          else last = Math.max(last, Number(line));
        }
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code, signal) =>
        signal === 'SIGKILL'
          ? resolve(last)
          : reject(new Error(`worker ended with ${signal ?? code}: ${stderr}`)),
      );
    });
  }

  // The same document, killed again and again at different moments of the burst.
  let dir: string;
  const file = () => join(dir, 'doc.json');
  before(() => (dir = mkdtempSync(join(tmpdir(), 'mgp-store-kill-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const onDisk = (): number => {
    try {
      return (JSON.parse(readFileSync(file(), 'utf8')) as Doc).n;
    } catch {
      return 0;
    }
  };
  for (const delayMs of [2, 5, 9, 14, 23, 38, 61, 99, 160, 7, 3, 45]) {
    it(`leaves the old or the new document, never a torn one (killed ${delayMs} ms into the burst)`, async () => {
      const previous = onDisk();
      const acknowledged = Math.max(previous, await killAfter(file(), delayMs));
      if (!existsSync(file())) return assert.equal(acknowledged, 0); // killed before the first write: the old state, no file
      const doc = JSON.parse(readFileSync(file(), 'utf8')) as Doc; // throws on a torn document
      assert.equal(doc.digest, digestOf(doc.n, doc.payload));
      assert.ok(
        doc.n === acknowledged || doc.n === acknowledged + 1,
        `on disk ${doc.n}, acknowledged ${acknowledged}`,
      );
      const reopened = new JsonStore<Doc>({
        path: file(),
        defaultValue: () => ({ n: 0, payload: '', digest: '' }),
      });
      assert.equal((await reopened.load()).status, 'loaded');
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.endsWith('.tmp')),
        [],
      );
    });
  }
});
