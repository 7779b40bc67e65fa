/**
 * `[kernel.sandbox]` and `[servers.sandbox]`: the operating-system sandbox a stdio server runs in
 * (bubblewrap on Linux, Seatbelt on macOS). The same keys at both levels; a server's table overrides
 * the kernel's key by key, and a workspace file may only tighten either.
 */
import { described, enumOf, JsonSchema } from './schemaTypes';
import { NETWORK_ACCESS, SANDBOX_MODES } from './vocabulary';

type Scope = 'kernel' | 'server';

const CITED = ' (MGP §2.3 trust levels; OpenFang, Subprocess Sandboxing)';

/** Every description cites where the sandbox comes from: `sandboxed` confined for real. */
function cited(plain: string, markdown: string) {
  const strip = (text: string) => text.replace(/\.$/, '');
  return described(`${strip(plain)}${CITED}.`, `${strip(markdown)}${CITED}.`);
}

function paths(plain: string, markdown: string, example: string[]): JsonSchema {
  return {
    type: 'array',
    uniqueItems: true,
    items: {
      type: 'string',
      minLength: 1,
      ...cited(
        'A path: absolute, ~/… for the home folder, or relative to this file’s folder.',
        'A path: absolute, `~/…` for your home folder, or relative to the folder of this file.',
      ),
    },
    ...cited(plain, markdown),
    examples: [example],
  };
}

export function sandboxSchema(scope: Scope): JsonSchema {
  const whose = scope === 'kernel' ? 'every stdio server' : 'this stdio server';
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      mode: {
        type: 'string',
        ...enumOf(SANDBOX_MODES),
        ...cited(
          `Whether ${whose} runs in an OS sandbox: auto (where the platform has one), required (refuse to start without one) or off.`,
          `Whether ${whose} runs inside an operating-system sandbox (bubblewrap on Linux, Seatbelt on macOS):\n\n` +
            '- `auto`: sandboxed where the platform gives one, otherwise started unconfined and shown as such\n' +
            '- `required`: refuse to start where the platform cannot sandbox it\n' +
            '- `off`: never sandboxed (only your own config can say so)\n\n' +
            'Default: `auto`; `required` for a server whose `[servers.mgp] trust_level` is `sandboxed`, `off` for `trusted` in your own config.',
        ),
        examples: ['required'],
      },
      write: paths(
        'Folders the server may write besides the workspace folder and its own temporary folder.',
        'Folders the server may write to, besides the workspace folder and its own temporary folder (`/tmp` inside the sandbox). Everything else is read-only to it. ' +
          'A workspace file cannot add any.',
        ['~/notes'],
      ),
      deny_read: paths(
        'Paths the server may not read, added to the defaults (~/.ssh, ~/.aws, ~/.gnupg, keyrings, browser profiles, the MGP state folder…).',
        'Paths the server may not read, added to the defaults: `~/.ssh`, `~/.aws`, `~/.gnupg`, `~/.config/gcloud`, `~/.azure`, `~/.docker`, `~/.kube`, ' +
          '`~/.netrc`, `~/.npmrc`, `~/.git-credentials`, `~/.config/gh`, the keyrings, browser profiles and the MGP state folder. Reading one fails with "permission denied".',
        ['~/private'],
      ),
      allow_read: paths(
        'Default-denied paths this server may read after all (your own config only).',
        'Paths of the default `deny_read` list that the server may read after all, e.g. `~/.kube` for a Kubernetes server. Only your own config can say so; a workspace file cannot.',
        ['~/.kube'],
      ),
      network: {
        type: 'string',
        ...enumOf(NETWORK_ACCESS),
        ...cited(
          `What ${whose} may reach on the network: none, loopback (the listed ports only), domains (through the kernel's proxy) or all.`,
          `What ${whose} may reach on the network:\n\n` +
            '- `none`: nothing; the server has a network of its own with only its own loopback\n' +
            '- `loopback`: the `ports` listed, on this machine’s loopback, and nothing else\n' +
            '- `domains`: the `domains` listed, through the kernel’s HTTP proxy (`HTTPS_PROXY`), and nothing else\n' +
            '- `all`: the network as you have it\n\n' +
            'Default: `all`; `none` for a server whose `trust_level` is `sandboxed`. On Linux only `all` lets a server reach the host’s abstract Unix sockets.',
        ),
        examples: ['none'],
      },
      ports: {
        type: 'array',
        uniqueItems: true,
        items: {
          type: 'integer',
          minimum: 1,
          maximum: 65535,
          ...cited('A TCP port on 127.0.0.1.', 'A TCP port on `127.0.0.1`.'),
        },
        ...cited(
          'With network = "loopback": the TCP ports on this machine’s loopback the server may connect to.',
          'With `network = "loopback"`: the TCP ports on this machine’s loopback (127.0.0.1) the server may connect to; any other port is refused.',
        ),
        examples: [[5432]],
      },
      domains: {
        type: 'array',
        uniqueItems: true,
        items: {
          type: 'string',
          pattern: '^(\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$',
          ...cited(
            'A host name, or *.example.com for its subdomains.',
            'A host name such as `api.github.com`, or `*.example.com` for every subdomain of `example.com`.',
          ),
        },
        ...cited(
          'With network = "domains": the hosts the server may reach through the kernel’s proxy.',
          'With `network = "domains"`: the hosts the server may reach through the kernel’s HTTP proxy (set as `HTTP_PROXY`/`HTTPS_PROXY` for it). Loopback, private and metadata addresses are refused whatever the name.',
        ),
        examples: [['api.github.com']],
      },
    },
    ...cited(
      `The operating-system sandbox of ${whose}: what it may write, read and reach.`,
      `The operating-system sandbox of ${whose} (Linux: bubblewrap; macOS: Seatbelt): what it may write (\`write\`), what it may not read (\`deny_read\`), and what it may reach (\`network\`). ` +
        'The sandbox is the boundary; validators only check arguments before the question. A workspace file may only tighten these settings.',
    ),
  };
}
