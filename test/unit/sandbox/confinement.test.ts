import { strict as assert } from 'node:assert';
import { bubblewrapArgs } from '../../../client/src/kernel/sandbox/bubblewrap';
import { seatbeltProfile } from '../../../client/src/kernel/sandbox/seatbelt';
import { domainAllowed } from '../../../client/src/kernel/sandbox/hostBridges';
import { describeIsolation } from '../../../client/src/kernel/sandbox/isolation';

const base = {
  write: ['/ws'],
  denyRead: [
    { path: '/home/u/.ssh', directory: true },
    { path: '/home/u/.netrc', directory: false },
  ],
  keepReadable: ['/tmp/checkout'],
  tmp: '/tmp/mgp-sandbox-a/tmp',
  unreadableFile: '/tmp/mgp-sandbox-a/unreadable',
  cwd: '/ws',
};

/** The value after each occurrence of `flag`, in order. */
function after(args: string[], flag: string, count = 1): string[][] {
  return args.flatMap((a, i) => (a === flag ? [args.slice(i + 1, i + 1 + count)] : []));
}

describe('bubblewrap command line', () => {
  it('drops every capability and user namespace, and dies with the kernel', () => {
    const args = bubblewrapArgs({ ...base, network: 'none' });
    for (const flag of ['--die-with-parent', '--new-session', '--unshare-user', '--disable-userns'])
      assert.ok(args.includes(flag), flag);
    assert.deepEqual(after(args, '--cap-drop'), [['ALL']]);
    assert.ok(args.includes('--unshare-net'));
  });

  it('shares the network only when it may use all of it', () => {
    assert.ok(!bubblewrapArgs({ ...base, network: 'all' }).includes('--unshare-net'));
    for (const network of ['none', 'loopback', 'domains'] as const)
      assert.ok(bubblewrapArgs({ ...base, network }).includes('--unshare-net'), network);
  });

  it('mounts the root read-only, then its own /tmp, then what it may write, then the denials last', () => {
    const args = bubblewrapArgs({ ...base, network: 'none' });
    const at = (flag: string, value: string) =>
      args.findIndex((a, i) => a === flag && args.slice(i + 1).includes(value));
    assert.deepEqual(after(args, '--ro-bind', 2)[0], ['/', '/']);
    assert.deepEqual(after(args, '--bind', 2), [
      ['/tmp/mgp-sandbox-a/tmp', '/tmp'],
      ['/ws', '/ws'],
    ]);
    const sshMask = args.indexOf('/home/u/.ssh');
    assert.deepEqual(args.slice(sshMask - 3, sshMask), ['--perms', '0000', '--tmpfs']);
    const netrcMask = args.indexOf('/home/u/.netrc');
    assert.deepEqual(args.slice(netrcMask - 2, netrcMask), [
      '--ro-bind',
      '/tmp/mgp-sandbox-a/unreadable',
    ]);
    assert.ok(at('--bind', '/ws') < sshMask, 'denials come after writable folders');
    assert.deepEqual(
      after(args, '--tmpfs')
        .map(([p]) => p)
        .slice(0, 2),
      ['/run', '/var/tmp'],
    );
  });
});

describe('Seatbelt profile', () => {
  it('denies writes but to its folders, reads of denied paths, and the network as asked', () => {
    const profile = seatbeltProfile({
      write: ['/Users/u/ws'],
      denyRead: [{ path: '/Users/u/.ssh', directory: true }],
      tmp: '/var/folders/x/tmp',
      network: 'loopback',
      loopbackPorts: [5432],
    });
    assert.match(profile, /\(deny file-write\*\)/);
    assert.match(
      profile,
      /\(allow file-write\* \(subpath "\/Users\/u\/ws"\) \(subpath "\/var\/folders\/x\/tmp"\)/,
    );
    assert.match(profile, /\(deny file-read\* file-write\* \(subpath "\/Users\/u\/.ssh"\)\)/);
    assert.match(profile, /\(deny network\*\)/);
    assert.match(profile, /\(allow network-outbound \(remote tcp "localhost:5432"\)\)/);
  });

  it('quotes paths so a name cannot end the string', () => {
    const profile = seatbeltProfile({
      write: ['/Users/u/a") (allow default'],
      denyRead: [],
      tmp: '/t',
      network: 'all',
      loopbackPorts: [],
    });
    assert.ok(profile.includes('(subpath "/Users/u/a\\") (allow default")'));
    assert.ok(!/\(deny network/.test(profile));
  });
});

describe('domain allowlist', () => {
  it('matches names exactly, and *.domain below the domain only', () => {
    const domains = ['api.github.com', '*.example.com'];
    assert.ok(domainAllowed('api.github.com', domains));
    assert.ok(domainAllowed('API.GitHub.com.', domains));
    assert.ok(domainAllowed('a.b.example.com', domains));
    assert.ok(!domainAllowed('example.com', domains));
    assert.ok(!domainAllowed('github.com', domains));
    assert.ok(!domainAllowed('evilexample.com', domains));
    assert.ok(!domainAllowed('api.github.com.evil.net', domains));
  });
});

describe('isolation in words', () => {
  it('says what a sandboxed server may do, and why another is not sandboxed', () => {
    assert.equal(
      describeIsolation({
        sandboxed: true,
        kind: 'bubblewrap',
        write: ['/ws'],
        network: 'loopback',
        ports: [5432],
        domains: [],
      }),
      'sandboxed (bubblewrap): writes /ws and its own /tmp; loopback ports 5432',
    );
    assert.equal(
      describeIsolation({ sandboxed: false, reason: 'the sandbox is off in your config' }),
      'not sandboxed: the sandbox is off in your config',
    );
  });
});
