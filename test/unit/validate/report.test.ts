import { strict as assert } from 'node:assert';
import { badgeSvg, junitXml, resultLine } from '../../../client/src/kernel/validate/report';
import { SchemaJudge } from '../../../client/src/kernel/validate/schemas';
import { reachedTier, summarize } from '../../../client/src/kernel/validate/tiers';
import type { CheckResult, CheckTier } from '../../../client/src/kernel/validate/types';

const check = (
  id: string,
  tier: CheckTier,
  status: CheckResult['status'],
  extension?: CheckResult['extension'],
): CheckResult => ({
  id,
  tier,
  title: id,
  section: 'MGP §2',
  status,
  detail: `${id} <&>`,
  extension,
  durationMs: 1,
});

describe('mgp validate: tiers and the report', function () {
  it('reaches a tier only when every check of it and below passes, and never past a base FAIL', () => {
    const base = [check('mcp.a', 0, 'missing')];
    assert.equal(reachedTier([...base, check('t1', 1, 'pass'), check('t2', 2, 'pass')]), 2);
    assert.equal(reachedTier([...base, check('t1', 1, 'pass'), check('t2', 2, 'skipped')]), 1);
    assert.equal(reachedTier([...base, check('t1', 1, 'missing'), check('t2', 2, 'pass')]), 0);
    assert.equal(reachedTier([check('mcp.a', 0, 'fail'), check('t1', 1, 'pass')]), 0);
  });

  it('counts an extension row only when all of its checks pass', () => {
    const report = summarize(
      'x',
      [
        check('n', 1, 'pass', '§2 Negotiation'),
        check('u', 1, 'fail', '§2 Negotiation'),
        check('s', 1, 'pass', '§4 Security Metadata'),
      ],
      {},
      Date.now(),
    );
    assert.deepEqual(report.extensions.passed, ['§4 Security Metadata']);
    assert.equal(resultLine(report), 'Result: MCP compliant, no MGP tier (1/11 extensions)');
  });

  it('writes JUnit with escaped text, a FAIL as a failure and a MISSING as skipped', () => {
    const report = summarize(
      'a "b" <c>',
      [check('p', 1, 'pass'), check('f', 2, 'fail'), check('m', 3, 'missing')],
      {},
      0,
    );
    const xml = junitXml(report);
    assert.match(xml, /tests="3" failures="1" skipped="1"/);
    assert.match(xml, /<failure message="f &lt;&amp;&gt;">/);
    assert.match(xml, /<skipped message="MISSING: m &lt;&amp;&gt;"\/>/);
    assert.match(xml, /name="mgp validate server a &quot;b&quot; &lt;c&gt;"/);
    assert.doesNotMatch(xml, /<c>/);
  });

  it('draws the badge with the tier reached', () => {
    const report = summarize('x', [check('t1', 1, 'pass')], {}, 0);
    assert.match(badgeSvg(report), /aria-label="MGP: Tier 1"/);
    assert.match(badgeSvg(summarize('x', [check('t1', 1, 'missing')], {}, 0)), /MGP: none/);
  });

  it('makes arguments a schema accepts, or none when it cannot', () => {
    const judge = new SchemaJudge();
    assert.deepEqual(
      judge.sampleArguments({
        type: 'object',
        properties: {
          path: { type: 'string', minLength: 20 },
          mode: { enum: ['append', 'write'] },
          count: { type: 'integer', minimum: 3 },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
          optional: { type: 'string' },
        },
        required: ['path', 'mode', 'count', 'tags'],
      }),
      { path: 'mgp-validatexxxxxxxx', mode: 'append', count: 3, tags: ['mgp-validate'] },
    );
    assert.equal(
      judge.sampleArguments({
        type: 'object',
        properties: { a: { type: 'string', pattern: '^\\d+$' } },
        required: ['a'],
      }),
      undefined,
    );
    assert.match(judge.problemOf({ type: 'array' }) ?? '', /not "object"/);
    assert.match(
      judge.problemOf({ type: 'object', properties: { a: { type: 'nonsense' } } }) ?? '',
      /.+/,
    );
  });
});
