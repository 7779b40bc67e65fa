import { strict as assert } from 'node:assert';
import {
  MAX_DETAIL_CHARS,
  MAX_DETAIL_ITEMS,
  MAX_DETAIL_STRING,
  REDACTED,
  Redactor,
} from '../../../client/src/kernel/audit/redact';

describe('audit redaction', () => {
  it('hides credential-named keys at any depth, in headers too, whatever the case or separator', () => {
    const redactor = new Redactor();
    const details = {
      request: {
        headers: {
          Authorization: 'Bearer abc',
          'Proxy-Authorization': 'Basic x',
          Cookie: 'a=b',
          'X-Api-Key': 'k',
          Accept: 'text/html',
        },
      },
      response: { headers: { 'set-cookie': ['s=1', 's=2'] } },
      config: {
        apiKey: 'k1',
        API_KEY: 'k2',
        access_token: { value: 'nested' },
        password: 1234,
        secret: 'x',
        token: 'y',
        tokens_used: 12,
      },
      list: [
        { name: 'Authorization', value: 'Token abc' },
        { name: 'Accept', value: 'json' },
      ],
      nothing: { password: null },
    };
    assert.deepEqual(redactor.redact(details), {
      request: {
        headers: {
          Authorization: REDACTED,
          'Proxy-Authorization': REDACTED,
          Cookie: REDACTED,
          'X-Api-Key': REDACTED,
          Accept: 'text/html',
        },
      },
      response: { headers: { 'set-cookie': REDACTED } },
      config: {
        apiKey: REDACTED,
        API_KEY: REDACTED,
        access_token: REDACTED,
        password: REDACTED,
        secret: REDACTED,
        token: REDACTED,
        tokens_used: 12,
      },
      list: [
        { name: 'Authorization', value: REDACTED },
        { name: 'Accept', value: 'json' },
      ],
      nothing: { password: null },
    });
  });

  it('hides Bearer and Basic credentials inside strings, keeping the scheme, and leaves prose alone', () => {
    const redactor = new Redactor();
    assert.equal(
      redactor.redactString(
        'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig" https://x',
      ),
      'curl -H "Authorization: [REDACTED]" https://x',
    );
    assert.equal(
      redactor.redactString('sent bearer ghp_16C7e42F292c6912E7710c838347Ae178B4a then'),
      `sent bearer ${REDACTED} then`,
    );
    assert.equal(
      redactor.redactString('Basic dXNlcjpwYXNzd29yZA== was used'),
      `Basic ${REDACTED} was used`,
    );
    assert.equal(
      redactor.redactString('Basic configuration and Bearer authentication explained'),
      'Basic configuration and Bearer authentication explained',
    );
  });

  it('hides key=value and key: value pairs in strings (query strings, pasted headers, JSON text)', () => {
    const redactor = new Redactor();
    assert.equal(
      redactor.redactString('GET /v1/items?access_token=abc123&page=2'),
      `GET /v1/items?access_token=${REDACTED}&page=2`,
    );
    assert.equal(
      redactor.redactString('{"password":"hunter2","user":"bob"}'),
      `{"password":"${REDACTED}","user":"bob"}`,
    );
    assert.equal(redactor.redactString('x-api-key: 12345678'), `x-api-key: ${REDACTED}`);
    assert.equal(redactor.redactString('the token expired'), 'the token expired');
  });

  it('hides registered secrets anywhere, even as substrings, in keys and in numbers', () => {
    const redactor = new Redactor({ secrets: ['tok-ABCDEF-999'] });
    assert.equal(redactor.addSecret('987654321'), true);
    const out = redactor.redact({
      cmd: 'deploy --key=tok-ABCDEF-999 --verbose',
      nested: [{ deep: 'xx tok-ABCDEF-999xx' }],
      'tok-ABCDEF-999': 1,
      pin: 987654321,
      other: 42,
    });
    assert.deepEqual(out, {
      cmd: `deploy --key=${REDACTED} --verbose`,
      nested: [{ deep: `xx ${REDACTED}xx` }],
      [REDACTED]: 1,
      pin: REDACTED,
      other: 42,
    });
  });

  it('ignores secrets shorter than 4 characters, which would redact everything', () => {
    const redactor = new Redactor();
    assert.equal(redactor.addSecret('abc'), false);
    assert.equal(redactor.addSecret(''), false);
    assert.equal(redactor.secretCount, 0);
    assert.equal(redactor.redactString('abcabc cab'), 'abcabc cab');
    assert.equal(redactor.addSecret('abcd'), true);
    assert.equal(redactor.redactString('xabcdx'), `x${REDACTED}x`);
  });

  it('prefers the longest secret when one contains another, and escapes regex characters', () => {
    const redactor = new Redactor({ secrets: ['pass', 'pass.word+1'] });
    assert.equal(
      redactor.redactString('pass.word+1 passXword+1'),
      `${REDACTED} ${REDACTED}Xword+1`,
    );
  });

  it('returns a copy, and turns cycles into [Circular]', () => {
    const redactor = new Redactor();
    const input: Record<string, unknown> = { token: 'abc', keep: { a: 1 } };
    input.self = input;
    const out = redactor.redact(input) as Record<string, unknown>;
    assert.equal(input.token, 'abc');
    assert.notEqual(out.keep, input.keep);
    assert.equal(out.self, '[Circular]');
  });

  it('bounds what an event may hold, marking each cut (issue 24, 14)', () => {
    const r = new Redactor({ secrets: ['hunter22'] });
    const big = `hunter22 ${'e'.repeat(2 * 1024 * 1024)}`;
    const out = r.redact({
      error: big,
      list: Array.from({ length: 1000 }, (_, i) => i),
      deep: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) as unknown,
      wide: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`k${i}`, i])),
    });
    const error = out.error as string;
    assert.ok(error.startsWith(`${REDACTED} eee`), 'redacted before it is cut');
    assert.match(error, /…\[truncated: 2,093,\d{3} more characters\]$/);
    assert.ok(error.length < MAX_DETAIL_STRING + 64);
    const list = out.list as unknown[];
    assert.equal(list.length, MAX_DETAIL_ITEMS + 1);
    assert.equal(list.at(-1), `…[truncated: ${1000 - MAX_DETAIL_ITEMS} more items]`);
    assert.match(JSON.stringify(out.deep), /nested too deep/);
    assert.equal(Object.keys(out.wide as object).length, MAX_DETAIL_ITEMS + 1);
    const many = r.redact({ parts: Array.from({ length: 200 }, () => 'x'.repeat(4000)) });
    assert.ok(
      JSON.stringify(many).length < MAX_DETAIL_CHARS + 200 * 40,
      'one budget for the event',
    );
  });
});
