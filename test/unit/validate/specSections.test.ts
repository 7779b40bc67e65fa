import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_SERVER_CHECKS } from '../../../client/src/kernel';
import {
  headingLine,
  isSectionLink,
  MCP_PAGES,
  sectionLinks,
} from '../../../shared/src/specSections';
import { repoRoot } from '../../repoRoot';

// Every section a validation check cites is a link the report page can open: MGP and MCPL at a
// heading of the bundled text, MCP at a page of the published specification.

const bundled = {
  mgp: readFileSync(join(repoRoot(), 'media/specs/mgp-0.5.2-draft.md'), 'utf8'),
  mcpl: readFileSync(join(repoRoot(), 'media/specs/mcpl-0.4.1-draft.md'), 'utf8'),
};

describe('the spec sections validation checks cite', () => {
  it('reads each cited section as links: every one of a list, the first of a range', () => {
    assert.deepEqual(sectionLinks('MGP §5, §17.1'), [
      { label: 'MGP §5', spec: 'mgp', anchor: '5' },
      { label: 'MGP §17.1', spec: 'mgp', anchor: '17.1' },
    ]);
    assert.deepEqual(sectionLinks('MCPL §8.2–8.7'), [
      { label: 'MCPL §8.2–8.7', spec: 'mcpl', anchor: '8.2' },
    ]);
    assert.deepEqual(sectionLinks('MGP §2.4 rule 3'), [
      { label: 'MGP §2.4', spec: 'mgp', anchor: '2.4' },
    ]);
    assert.deepEqual(
      sectionLinks('MCP Tools, Pagination').map((link) => link.anchor),
      ['Tools', 'Pagination'],
    );
    assert.deepEqual(sectionLinks('somewhere else'), []);
  });

  it('finds a heading by its number, not a longer number that starts with it', () => {
    const text = '# T\n## 1. One\n### 1.1 Sub\n### 11.1 Other\n';
    assert.equal(headingLine(text, '1'), 1);
    assert.equal(headingLine(text, '1.1'), 2);
    assert.equal(headingLine(text, '11.1'), 3);
    assert.equal(headingLine(text, '2'), undefined);
  });

  for (const check of ALL_SERVER_CHECKS)
    it(`${check.id} (${check.section}) links to sections that exist`, () => {
      const links = sectionLinks(check.section);
      assert.ok(links.length > 0, `no link in "${check.section}"`);
      for (const link of links) {
        assert.ok(isSectionLink(link), `${link.label} is not a link the host opens`);
        if (link.spec === 'mcp') assert.ok(link.anchor in MCP_PAGES);
        else
          assert.notEqual(
            headingLine(bundled[link.spec], link.anchor),
            undefined,
            `${link.label} has no heading in the bundled text`,
          );
      }
    });

  it('refuses a link a webview makes up', () => {
    assert.equal(isSectionLink({ spec: 'mcp', anchor: 'constructor' }), false);
    assert.equal(isSectionLink({ spec: 'mgp', anchor: '../../etc' }), false);
    assert.equal(isSectionLink({ spec: 'other', anchor: '1' }), false);
  });
});
