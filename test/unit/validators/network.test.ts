import { strict as assert } from 'node:assert';
import {
  runValidators,
  type ValidationOutcome,
  type ValidatorOptions,
} from '../../../client/src/kernel/security/validators';
import {
  classifyIPv4,
  classifyIPv6,
  parseIPv4,
  parseIPv6,
} from '../../../client/src/kernel/net/ipAddress';
import { MAX_LOOKUPS } from '../../../client/src/kernel/security/validators/network';
import { systemResolve } from '../../../client/src/kernel/net/resolve';
import type { ToolSecurity } from '../../../client/src/kernel/domain/security';

const SECURITY: ToolSecurity = {
  risk_level: 'moderate',
  permissions_required: ['network.outbound'],
  side_effects: ['network'],
};

function check(
  args: Record<string, unknown>,
  options?: ValidatorOptions,
): Promise<ValidationOutcome> {
  return runValidators(
    ['network_restricted'],
    { toolName: 'fetch', args, security: SECURITY },
    options,
  );
}

describe('network_restricted: address parsing', () => {
  it('reads every inet_aton spelling of 127.0.0.1', () => {
    const loopback = parseIPv4('127.0.0.1');
    assert.equal(loopback, 0x7f000001);
    for (const spelling of [
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '127.1',
      '0x7f.1',
      '127.0.1',
      '0x7f.0.0.0x1',
      '127.0.0.1.',
    ]) {
      assert.equal(parseIPv4(spelling), loopback, spelling);
    }
    for (const notAnAddress of [
      '256.0.0.1',
      '1.2.3.4.5',
      '08.0.0.1',
      'cafe',
      '4294967296',
      'example.com',
    ]) {
      assert.equal(parseIPv4(notAnAddress), undefined, notAnAddress);
    }
  });

  it('classifies IPv4 ranges at their edges', () => {
    const kind = (a: string) => classifyIPv4(parseIPv4(a) as number)?.kind;
    assert.equal(kind('172.15.255.255'), undefined);
    assert.equal(kind('172.16.0.0'), 'private');
    assert.equal(kind('172.31.255.255'), 'private');
    assert.equal(kind('172.32.0.0'), undefined);
    assert.equal(kind('100.63.255.255'), undefined);
    assert.equal(kind('100.127.255.255'), 'private');
    assert.equal(kind('169.254.169.254'), 'metadata');
    assert.equal(kind('169.254.170.2'), 'metadata');
    assert.equal(kind('255.255.255.255'), 'reserved');
    assert.equal(kind('8.8.8.8'), undefined);
  });

  it('reads IPv6 with an embedded IPv4 address and judges it by that address', () => {
    const kind = (a: string) => classifyIPv6(parseIPv6(a) as number[])?.kind;
    assert.deepEqual(parseIPv6('::ffff:127.0.0.1'), [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    assert.equal(kind('::ffff:7f00:1'), 'loopback');
    assert.equal(kind('::ffff:10.0.0.1'), 'private');
    assert.equal(kind('64:ff9b::a9fe:a9fe'), 'metadata');
    assert.equal(kind('2002:c0a8:0101::1'), 'private');
    assert.equal(kind('fe80::1%eth0'), 'link-local');
    assert.equal(kind('::'), 'unspecified');
    assert.equal(kind('2606:4700:4700::1111'), undefined);
    assert.equal(kind('::ffff:8.8.8.8'), undefined);
  });
});

describe('network_restricted: hosts are resolved first', () => {
  it('asks the injected resolver once per distinct name, and blocks a public name that resolves privately (DNS rebinding)', async () => {
    const asked: string[] = [];
    const resolveHost = async (host: string) => {
      asked.push(host);
      return host === 'innocent.example.org' ? ['10.20.30.40'] : ['93.184.216.34'];
    };
    const outcome = await check(
      {
        url: 'https://innocent.example.org/a',
        mirror: 'https://innocent.example.org/b',
        other: 'https://cdn.example.net/',
      },
      { resolveHost },
    );
    assert.deepEqual(asked.sort(), ['cdn.example.net', 'innocent.example.org']);
    assert.deepEqual(
      outcome.violations.map((v) => [v.rule, v.argument]),
      [['resolves_to_restricted', '/url']],
    );
    assert.match(
      outcome.violations[0].message,
      /innocent\.example\.org, which resolves to 10\.20\.30\.40, a private address \(10\.0\.0\.0\/8\)/,
    );
  });

  it('blocks when any one of several addresses is restricted, IPv6 included', async () => {
    const resolveHost = async () => [
      '93.184.216.34',
      '2606:2800:220:1::',
      '::ffff:169.254.169.254',
    ];
    const outcome = await check({ url: 'https://many.example.org/' }, { resolveHost });
    assert.equal(outcome.ok, false);
    assert.match(outcome.violations[0].message, /cloud metadata endpoint/);
  });

  it('lets a name pass when it does not resolve, or when the lookup outlasts the timeout', async () => {
    const fails = await check(
      { url: 'https://gone.example.org/' },
      { resolveHost: () => Promise.reject(new Error('ENOTFOUND')) },
    );
    assert.equal(fails.ok, true);
    // A lookup that never answers: the check returning at all is the timeout at work.
    const hangs = await check(
      { url: 'https://slow.example.org/' },
      { resolveHost: () => new Promise<string[]>(() => undefined), resolveTimeoutMs: 50 },
    );
    assert.equal(hangs.ok, true);
  });

  it('does not resolve names that are refused by name or are literal addresses', async () => {
    const asked: string[] = [];
    const outcome = await check(
      { a: 'http://localhost:3000/', b: 'http://10.0.0.1/', c: 'http://x.internal/' },
      { resolveHost: async (h) => (asked.push(h), []) },
    );
    assert.deepEqual(asked, []);
    assert.deepEqual(
      outcome.violations.map((v) => v.rule),
      ['loopback_address', 'private_address', 'private_address'],
    );
  });

  it('refuses a call that names more hosts than it will resolve', async () => {
    const urls = Array.from({ length: MAX_LOOKUPS + 1 }, (_, i) => `https://h${i}.example.org/`);
    const outcome = await check({ urls }, { resolveHost: async () => ['93.184.216.34'] });
    assert.deepEqual(
      outcome.violations.map((v) => v.rule),
      ['too_many_hosts'],
    );
    const fewer = await check(
      { urls: urls.slice(1) },
      { resolveHost: async () => ['93.184.216.34'] },
    );
    assert.equal(fewer.ok, true);
  });

  it('resolves for real through the system resolver: localhost comes back as loopback from /etc/hosts', async () => {
    const addresses = await systemResolve('localhost');
    assert.ok(
      addresses.some((a) => a === '127.0.0.1' || a === '::1'),
      addresses.join(', '),
    );
    // A name the validator cannot judge by itself, resolved by the real lookup of `localhost`.
    const viaRealDns = await check(
      { url: 'http://dev-box.example.org:8080/' },
      { resolveHost: (h) => systemResolve(h === 'dev-box.example.org' ? 'localhost' : h) },
    );
    assert.deepEqual(
      viaRealDns.violations.map((v) => v.rule),
      ['resolves_to_restricted'],
    );
    assert.match(viaRealDns.violations[0].message, /resolves to (?:127\.0\.0\.1|::1)/);
  });

  it('uses the system resolver when none is injected', async () => {
    const outcome = await check({
      url: 'http://localhost./admin',
      other: 'https://name-that-does-not-exist.invalid/',
    });
    assert.deepEqual(
      outcome.violations.map((v) => [v.rule, v.argument]),
      [['loopback_address', '/url']],
    );
  });
});

describe('network_restricted: where hosts are found', () => {
  const offline: ValidatorOptions = { resolveHost: async () => [] };

  it('reports the JSON pointer of a nested argument, escaped per RFC 6901', async () => {
    const outcome = await check(
      { targets: [{ 'a/b': 'ok' }, { 'a/b': 'http://192.168.1.1/' }] },
      offline,
    );
    assert.deepEqual(
      outcome.violations.map((v) => v.argument),
      ['/targets/1/a~1b'],
    );
    assert.match(outcome.violations[0].excerpt ?? '', /192\.168\.1\.1/);
  });

  it('reads host fields without a scheme, with ports, userinfo and brackets', async () => {
    for (const host of [
      '127.0.0.1:8080',
      'admin@10.0.0.2',
      '[::1]:22',
      'LOCALHOST',
      '//169.254.169.254/latest',
    ]) {
      assert.equal((await check({ host }, offline)).ok, false, host);
    }
    assert.equal((await check({ host: 'example.org:443' }, offline)).ok, true);
  });

  it('finds literals and host:port in free text, but not IP-like version numbers or path segments', async () => {
    assert.equal((await check({ text: 'ssh deploy@10.0.0.9 and restart' }, offline)).ok, false);
    assert.equal((await check({ text: 'curl localhost:9200/_cat' }, offline)).ok, false);
    assert.equal(
      (await check({ text: 'release v1.2.3.4 of https://example.org/a/10.0.0.1' }, offline)).ok,
      true,
    );
  });

  it('blocks the file:, gopher: and dict: schemes whatever the host', async () => {
    for (const url of [
      'file:///C:/Windows/win.ini',
      'FILE:/etc/passwd',
      'gopher://example.org/x',
      'dict://example.org:11211/stats',
    ]) {
      assert.deepEqual(
        (await check({ url }, offline)).violations.map((v) => v.rule),
        ['blocked_scheme'],
        url,
      );
    }
  });
});

describe('network_restricted: the URL a WHATWG parser produces (issue: TAB/newline in the host)', () => {
  const offline: ValidatorOptions = { resolveHost: async () => [] };

  it('judges the host after the parser drops TAB, CR and LF, whole value or embedded', async () => {
    for (const url of [
      'http://loc\talhost:8080/',
      'http://loc\nalhost:8080/',
      'http://127.0\r\n.0.1/',
      'ht\ttp://localhost/',
      '  http://169.254.\t169.254/latest/meta-data',
      '\u0000http://10.0.0.1/',
    ]) {
      const whole = await check({ url }, offline);
      assert.equal(whole.ok, false, JSON.stringify(url));
      const embedded = await check({ text: `please fetch ${url} now` }, offline);
      assert.equal(embedded.ok, false, `embedded ${JSON.stringify(url)}`);
    }
  });

  it('resolves exactly the host name the parser produces, even without a dot', async () => {
    const asked: string[] = [];
    const outcome = await check(
      { url: 'http://intra\tnet-box:8080/' },
      { resolveHost: async (h) => (asked.push(h), h === 'intranet-box' ? ['10.1.2.3'] : []) },
    );
    assert.ok(asked.includes('intranet-box'), asked.join(', '));
    assert.deepEqual(
      outcome.violations.map((v) => v.rule),
      ['resolves_to_restricted'],
    );
  });

  it('reads host fields the same way', async () => {
    assert.equal((await check({ host: 'local\thost:9200' }, offline)).ok, false);
    assert.equal((await check({ host: '10.0.\n0.7' }, offline)).ok, false);
  });

  it('still lets public URLs with tabs between words pass', async () => {
    const outcome = await check(
      { text: 'see\thttps://example.org/docs\tand\nhttps://example.com/x' },
      offline,
    );
    assert.equal(outcome.ok, true);
  });
});
