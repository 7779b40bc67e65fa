import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeConfigFiles, parseConfigText } from '../../client/src/kernel/config/load';
import {
  CONNECT_PERIODS_CAP,
  describeProgress,
} from '../../client/src/kernel/connection/connectDeadline';
import { AnalysisCache } from '../../server/src/analysis';
import { hover } from '../../server/src/features/hover';
import { mgpConfigSchema } from '@shared/schemas';
import { repoRoot } from '../repoRoot';

const TEXT = '[[servers]]\nid = "s"\ncommand = "node"\nconnect_timeout_secs = 5\n';

/** The hover's text on `connect_timeout_secs` in TEXT. */
function hoverText(): string {
  const analysis = new AnalysisCache().get('file:///w/mgp.toml', '/w/mgp.toml', 1, TEXT);
  const position = { line: 3, character: 3 };
  const shown = hover(analysis, position, { servers: [], shadowed: [] }, '/w/mgp.toml');
  const contents = shown?.contents as { value: string } | undefined;
  return contents?.value ?? '';
}

describe('one connect timeout: the kernel, the schema, the hover and the docs agree', () => {
  const schema = (
    mgpConfigSchema as unknown as {
      properties: {
        servers: {
          items: { properties: { connect_timeout_secs: { default: number; description: string } } };
        };
      };
    }
  ).properties.servers.items.properties.connect_timeout_secs;

  it('a server that sets none gets the schema default from the kernel', () => {
    const path = '/w/mgp.toml';
    const config = mergeConfigFiles([
      parseConfigText('[[servers]]\nid = "s"\ncommand = "node"\n', {
        path,
        format: 'mgp',
        origin: 'workspace',
      }),
    ]);
    assert.equal(config.servers[0].settings.connectTimeoutMs, schema.default * 1000);
  });

  it('the hover shows the same default and the same cap as the kernel keeps', () => {
    const text = hoverText();
    assert.match(text, /\*\*connect_timeout_secs\*\*/);
    assert.ok(text.includes(`Default: \`${schema.default}\``), text);
    // The words say "ten"; the kernel's cap must be that number.
    assert.equal(CONNECT_PERIODS_CAP, 10);
    assert.ok(text.includes('up to ten times'), text);
  });

  it('the docs state the same default and cap, once', () => {
    const docs = readFileSync(join(repoRoot(), 'docs/servers.md'), 'utf8');
    const rows = docs.split('\n').filter((line) => line.includes('`connect_timeout_secs`'));
    assert.equal(rows.length, 1, 'documented in one place');
    assert.ok(rows[0].includes(`default ${schema.default}`), rows[0]);
    assert.ok(rows[0].includes('up to ten'), rows[0]);
  });

  it('a straggler is described by what it showed and how long it may take', () => {
    assert.equal(
      describeProgress({ elapsedMs: 60_000, signs: ['stderr', 'cpu'], capMs: 300_000 }),
      'still starting after 60 s, writing to stderr and using CPU time (a first download?); it may take up to 300 s',
    );
  });
});
