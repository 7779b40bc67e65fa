/**
 * The destination guard's judgement of a URL a server named (net/destinationGuard.ts): every class of
 * address the kernel does not reach on a server's word, in the spellings a URL parser turns into
 * them, names that resolve to them, and what the config names.
 */
import { strict as assert } from 'node:assert';
import {
  checkDestination,
  type GuardOptions,
  normalizedHost,
} from '../../../client/src/kernel/net/destinationGuard';

/** A resolver that must not be asked: literal addresses and names refused by name need no DNS. */
const noDns = async (host: string): Promise<string[]> => {
  throw new Error(`asked to resolve ${host}`);
};

async function refusal(url: string, options: GuardOptions = { resolve: noDns }): Promise<string> {
  try {
    await checkDestination(new URL(url), options);
  } catch (error) {
    assert.equal((error as { code?: string }).code, 'UrlRejected', String(error));
    return (error as Error).message;
  }
  assert.fail(`${url} was let through`);
}

describe('the destination guard: what a server may not have the kernel reach', () => {
  it('refuses every class of address, IPv4 and IPv6, without resolving anything', async () => {
    const classes: [string, RegExp][] = [
      ['http://127.0.0.1/', /a loopback address \(127\.0\.0\.0\/8\)/],
      ['http://127.9.9.9:8080/x', /a loopback address/],
      ['http://[::1]/', /the loopback address \(::1\)/],
      ['http://10.1.2.3/', /a private address \(10\.0\.0\.0\/8\)/],
      ['http://172.16.0.1/', /a private address \(172\.16\.0\.0\/12\)/],
      ['http://192.168.1.1/', /a private address \(192\.168\.0\.0\/16\)/],
      ['http://100.64.0.1/', /a shared CGNAT address \(100\.64\.0\.0\/10\)/],
      ['http://169.254.10.10/', /a link-local address \(169\.254\.0\.0\/16\)/],
      ['http://[fe80::1]/', /a link-local address \(fe80::\/10\)/],
      ['http://[fd12:3456::1]/', /a unique local address \(fc00::\/7\)/],
      ['http://[fc00::1]/', /a unique local address/],
      ['http://224.0.0.251/', /a multicast address \(224\.0\.0\.0\/4\)/],
      ['http://[ff02::1]/', /a multicast address \(ff00::\/8\)/],
      ['http://169.254.169.254/latest/meta-data/', /the cloud metadata endpoint/],
      ['http://[fd00:ec2::254]/', /the AWS metadata endpoint/],
      ['http://100.100.100.200/', /the Alibaba Cloud metadata endpoint/],
      ['http://metadata.google.internal/', /a cloud metadata host name/],
      ['http://0.0.0.0/', /an unspecified "this network" address/],
      ['http://240.0.0.1/', /a reserved or broadcast address/],
      ['http://localhost:3000/', /a loopback host name/],
      ['http://admin.localhost/', /a loopback host name/],
      ['http://vault.internal/', /a private-use domain/],
      ['http://127.0.0.1.nip.io/', /a loopback address/],
    ];
    for (const [url, why] of classes) {
      const message = await refusal(url);
      assert.match(message, why, url);
      assert.match(message, /which your own config does not name/, url);
    }
  });

  it('judges an IPv4 address inside IPv6 by that address (mapped, NAT64, 6to4)', async () => {
    for (const url of [
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[2002:a00:1::]/',
    ])
      assert.match(await refusal(url), /inside an IPv6 address/, url);
    assert.match(await refusal('http://[::ffff:169.254.169.254]/'), /metadata endpoint/);
  });

  it('sees the address the URL parser makes of decimal, octal and hex spellings', async () => {
    for (const spelled of [
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '127.1',
      '0x7f.1',
      '017700000001',
    ])
      assert.match(
        await refusal(`http://${spelled}:8080/register`),
        /^refused a request to http:\/\/127\.0\.0\.1:8080\/register: 127\.0\.0\.1 is a loopback/,
        spelled,
      );
    assert.match(
      await refusal('http://0xa9.0xfe.0xa9.0xfe/'),
      /169\.254\.169\.254 is the cloud metadata/,
    );
  });

  it('resolves a name, and refuses it when any of its addresses is refused', async () => {
    const resolvingTo =
      (addresses: string[]): GuardOptions['resolve'] =>
      async () =>
        addresses;
    assert.match(
      await refusal('https://as.example.com/token', { resolve: resolvingTo(['10.0.0.7']) }),
      /as\.example\.com resolves to 10\.0\.0\.7, a private address/,
    );
    assert.match(
      await refusal('https://as.example.com/', {
        resolve: resolvingTo(['93.184.215.14', '::ffff:127.0.0.1']),
      }),
      /resolves to ::ffff:127\.0\.0\.1/,
    );
    assert.match(
      await refusal('https://as.example.com/', { resolve: resolvingTo([]) }),
      /as\.example\.com does not resolve/,
    );
    assert.deepEqual(
      await checkDestination(new URL('https://as.example.com/'), {
        resolve: resolvingTo(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']),
      }),
      { named: false, address: '93.184.215.14' },
      'a public name: connected to the first address checked',
    );
    assert.deepEqual(
      await checkDestination(new URL('https://93.184.215.14/'), { resolve: noDns }),
      {
        named: false,
        address: '93.184.215.14',
      },
    );
  });

  it('lets through what the config names: the server’s own origin, and named hosts on any port', async () => {
    const named = {
      origins: ['http://127.0.0.1:5000'],
      hosts: ['127.0.0.2', '::1', 'Sso.Corp.Example'],
    };
    const options = { named, resolve: noDns };
    for (const url of [
      'http://127.0.0.1:5000/.well-known/oauth-protected-resource',
      'http://127.0.0.2:9/register',
      'https://127.0.0.2/',
      'http://[::1]:4444/',
      'http://2130706434/',
      'https://sso.corp.example/token',
    ])
      assert.deepEqual(await checkDestination(new URL(url), options), { named: true }, url);
    assert.match(await refusal('http://127.0.0.1:5001/', options), /127\.0\.0\.1 is a loopback/);
    assert.match(await refusal('https://127.0.0.1:5000/', options), /127\.0\.0\.1 is a loopback/);
    assert.equal(normalizedHost('::1'), '[::1]');
    assert.equal(normalizedHost('2130706433'), '127.0.0.1');
    assert.equal(normalizedHost('host:80'), undefined, 'a port is not a host');
  });

  it('refuses other schemes and credentials in the URL', async () => {
    assert.match(await refusal('file:///etc/passwd'), /file: is not http or https/);
    assert.match(await refusal('ftp://93.184.215.14/'), /ftp: is not http or https/);
    const credentials = await refusal('https://user:secret@93.184.215.14/');
    assert.match(credentials, /the URL carries credentials/);
    assert.doesNotMatch(credentials, /secret/, 'the credentials are not repeated');
  });
});
