// test/conformance/baseline.yml: per suite version and side (client, server), the scenarios we do
// not claim, each with its reason. Read with a YAML parser and checked whole: a version that is not
// installed, a side that is neither client nor server, or an entry without a reason is an error.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const BASELINE = join(root, 'test/conformance/baseline.yml');
const SIDES = ['client', 'server'];
const { parse } = createRequire(join(root, 'tools/conformance/package.json'))('yaml');

const isMapping = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `versions` are the installed suite versions. Returns `reasons(version, side)`: a Map from each
 * scenario baseline.yml lists for that version and side to its reason (empty when it lists none).
 */
export function readBaseline(versions) {
  const document = parse(readFileSync(BASELINE, 'utf8')) ?? {};
  const fail = (what) => {
    throw new Error(`test/conformance/baseline.yml: ${what}`);
  };
  if (!isMapping(document)) fail('expected a mapping from suite versions to sides');
  const byVersion = new Map();
  for (const [version, sides] of Object.entries(document)) {
    if (!versions.includes(version))
      fail(`${version} is not an installed suite version (${versions.join(', ')})`);
    if (!isMapping(sides)) fail(`${version}: expected a mapping with client and/or server`);
    for (const [side, entries] of Object.entries(sides)) {
      if (!SIDES.includes(side)) fail(`${version}: ${side} is neither client nor server`);
      if (!isMapping(entries))
        fail(`${version}.${side}: expected a mapping from scenarios to reasons`);
      for (const [scenario, reason] of Object.entries(entries))
        if (typeof reason !== 'string' || reason.trim() === '')
          fail(`${version}.${side}.${scenario}: give the reason as text`);
      byVersion.set(`${version} ${side}`, new Map(Object.entries(entries)));
    }
  }
  return (version, side) => byVersion.get(`${version} ${side}`) ?? new Map();
}
