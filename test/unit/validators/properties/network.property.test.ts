/**
 * Property tests of network_restricted: generated spellings of restricted addresses (numeric
 * encodings, case, percent-encoding, userinfo, ports, trailing dots, TAB/CR/LF a WHATWG parser drops)
 * must all be refused; generated public URLs must all pass.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { runValidators } from '../../../../client/src/kernel/security/validators';
import type { ToolSecurity } from '../../../../client/src/kernel/domain/security';
import { RUNS, insertAnywhere, mixedCase } from './arbitraries';

const SECURITY: ToolSecurity = {
  risk_level: 'moderate',
  permissions_required: [],
  side_effects: ['network'],
};
const PUBLIC_ADDRESS = '93.184.216.34';

async function blocked(args: Record<string, unknown>): Promise<boolean> {
  const outcome = await runValidators(
    ['network_restricted'],
    { toolName: 'fetch', args, security: SECURITY },
    { resolveHost: async () => [PUBLIC_ADDRESS] },
  );
  return !outcome.ok;
}

/** Every inet_aton spelling of an IPv4 address: dotted parts in decimal, octal or hex, 1 to 4 parts. */
function ipv4Spelling(n: number): fc.Arbitrary<string> {
  const bytes = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  const radix = fc.constantFrom('dec', 'oct', 'hex');
  const spell = (value: number, r: string) =>
    r === 'dec' ? String(value) : r === 'oct' ? `0${value.toString(8)}` : `0x${value.toString(16)}`;
  return fc
    .tuple(fc.integer({ min: 1, max: 4 }), fc.array(radix, { minLength: 4, maxLength: 4 }))
    .map(([parts, radixes]) => {
      if (parts === 1) return spell(n >>> 0, radixes[0]);
      if (parts === 2)
        return [spell(bytes[0], radixes[0]), spell(n & 0xffffff, radixes[1])].join('.');
      if (parts === 3)
        return [
          spell(bytes[0], radixes[0]),
          spell(bytes[1], radixes[1]),
          spell(n & 0xffff, radixes[2]),
        ].join('.');
      return bytes.map((b, i) => spell(b, radixes[i])).join('.');
    });
}

const RESTRICTED_IPV4 = fc.oneof(
  fc.integer({ min: 0x7f000000, max: 0x7fffffff }), // 127.0.0.0/8
  fc.integer({ min: 0x0a000000, max: 0x0affffff }), // 10.0.0.0/8
  fc.integer({ min: 0xc0a80000, max: 0xc0a8ffff }), // 192.168.0.0/16
  fc.integer({ min: 0xac100000, max: 0xac1fffff }), // 172.16.0.0/12
  fc.integer({ min: 0xa9fe0000, max: 0xa9feffff }), // 169.254.0.0/16
  fc.constant(0),
);

const RESTRICTED_HOST = fc.oneof(
  RESTRICTED_IPV4.chain(ipv4Spelling),
  RESTRICTED_IPV4.map((n) => `[::ffff:${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}]`),
  fc.constantFrom('[::1]', '[0:0:0:0:0:0:0:1]', '[fe80::1]', '[fd00::abcd]', '[::]'),
  fc.constantFrom(
    'localhost',
    'api.localhost',
    'metadata.google.internal',
    'db.internal',
    'printer.local',
    'router.lan',
    'localtest.me',
    '127.0.0.1.nip.io',
  ),
);

/** A host as a client's URL parser still reads it: case, a trailing dot, percent-encoded letters. */
const SPELLED_HOST = RESTRICTED_HOST.chain((host) =>
  fc.tuple(mixedCase(host), fc.boolean(), fc.boolean()).map(([cased, dot, percent]) => {
    let out = cased;
    if (dot && !out.endsWith(']')) out += '.';
    if (percent && /[a-z]/i.test(out) && !out.startsWith('['))
      out = out.replace(/[a-z]/i, (c) => `%${c.charCodeAt(0).toString(16)}`);
    return out;
  }),
);

const URL_ARB = fc
  .tuple(
    fc.constantFrom('http', 'https', 'HTTP', 'ws', 'ftp'),
    fc.constantFrom('', 'user@', 'user:pass@', 'good.example.org@'),
    SPELLED_HOST,
    fc.constantFrom('', ':80', ':8080', ':65535'),
    fc.constantFrom('/', '/latest/meta-data', '/?a=1', '#x', ''),
  )
  .map(([scheme, userinfo, host, port, path]) => `${scheme}://${userinfo}${host}${port}${path}`);

/** TAB, CR and LF anywhere in the URL (a WHATWG parser drops them), and spaces or controls at its ends. */
const MANGLED_URL = URL_ARB.chain((url) =>
  fc
    .tuple(
      insertAnywhere(url, fc.constantFrom('\t', '\n', '\r', '\r\n')),
      fc.constantFrom('', ' ', '\u0000', '\t'),
    )
    .map(([mangled, edge]) => `${edge}${mangled}${edge}`),
);

describe('network_restricted: properties', function () {
  it('refuses every spelling of a restricted host in a URL argument', async () => {
    await fc.assert(
      fc.asyncProperty(URL_ARB, async (url) => assert.ok(await blocked({ url }), url)),
      { numRuns: RUNS },
    );
  });

  it('refuses URLs with TAB/CR/LF inserted anywhere, as a whole value and inside prose', async () => {
    await fc.assert(
      fc.asyncProperty(MANGLED_URL, async (url) => {
        assert.ok(await blocked({ url }), JSON.stringify(url));
        assert.ok(
          await blocked({ text: `fetch ${url} please` }),
          `in prose: ${JSON.stringify(url)}`,
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses restricted hosts in host fields', async () => {
    await fc.assert(
      fc.asyncProperty(SPELLED_HOST, fc.constantFrom('', ':22', ':5432'), async (host, port) => {
        assert.ok(await blocked({ host: `${host}${port}` }), host + port);
      }),
      { numRuns: RUNS },
    );
  });

  const LABEL = fc.stringMatching(/^[a-z][a-z0-9]{1,9}$/);
  const PUBLIC_URL = fc
    .tuple(
      fc.constantFrom('http', 'https'),
      fc.array(LABEL, { minLength: 1, maxLength: 3 }),
      fc.constantFrom('com', 'org', 'net', 'io', 'dev'),
      fc.constantFrom('', ':443', ':8443'),
      fc.stringMatching(/^(\/[a-z0-9._~-]{0,12}){0,3}$/),
    )
    .filter(
      ([, labels]) =>
        !labels.some((l) =>
          /^(?:localhost|local|internal|lan|home|corp|private|metadata)$/.test(l),
        ),
    )
    .map(
      ([scheme, labels, tld, port, path]) => `${scheme}://${labels.join('.')}.${tld}${port}${path}`,
    );

  it('lets public URLs pass, alone, in prose and separated by tabs and line breaks', async () => {
    await fc.assert(
      fc.asyncProperty(PUBLIC_URL, PUBLIC_URL, async (a, b) => {
        assert.ok(!(await blocked({ url: a })), a);
        assert.ok(!(await blocked({ text: `see ${a}\tand\n${b}` })), `${a} ${b}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('lets public IPv4 addresses pass in any spelling', async () => {
    const publicIpv4 = fc.integer({ min: 0x01000000, max: 0xdfffffff }).filter((n) => {
      const a = n >>> 24;
      const b = (n >>> 16) & 255;
      return (
        ![0, 10, 127].includes(a) &&
        !(a === 169 && b === 254) &&
        !(a === 172 && b >= 16 && b < 32) &&
        !(a === 192 && b === 168) &&
        !(a === 100 && b >= 64 && b < 128) &&
        !(a === 198 && (b === 18 || b === 19)) &&
        !(a === 192 && b === 0) &&
        !(a === 198 && b === 51) &&
        !(a === 203 && b === 0) &&
        !(a === 192 && b === 88)
      );
    });
    await fc.assert(
      fc.asyncProperty(publicIpv4.chain(ipv4Spelling), async (ip) => {
        assert.ok(!(await blocked({ url: `http://${ip}/` })), ip);
      }),
      { numRuns: RUNS },
    );
  });
});
