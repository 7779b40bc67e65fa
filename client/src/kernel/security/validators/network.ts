/**
 * The `network_restricted` validator (MGP §4.5: "Block requests to localhost, private IPs, metadata
 * endpoints"). Hosts come from hostExtract.ts and are judged by hosts.ts; names that are not refused by
 * name are resolved, and the call is refused when ANY address of a name is restricted (a name with one
 * public and one private address is refused: the server may connect to either).
 *
 * Decided where the protocol is silent:
 * - A name that does not resolve (no such name, no DNS, or no answer within the timeout) passes: the
 *   server would fail to reach it too. The check cannot pin the address the server will use, so a
 *   name that resolves publicly now and privately a second later (DNS rebinding) can slip through;
 *   network-level egress rules are the complete answer, this is defense in depth.
 * - Names without a dot are resolved only when they are the host a URL or host field points at (not
 *   pieces of userinfo), and at most MAX_LOOKUPS distinct names per call: a call that names more is
 *   refused rather than half checked.
 */
import type { ValidationContext } from './context';
import { hostsIn, type Found } from './hostExtract';
import { judgeResolved } from '../../net/hosts';
import { systemResolve } from '../../net/resolve';
import type { ValidatorOptions, Violation } from './types';
import { excerpt, place } from './text';

export const MAX_LOOKUPS = 16;
export const DEFAULT_RESOLVE_TIMEOUT_MS = 2000;

const WHY = 'This tool may not reach local, private, link-local or cloud metadata addresses.';

interface PendingName {
  host: string;
  pointer: string;
  text: string;
  found: Found;
}

async function resolveWithin(
  resolve: (host: string) => Promise<string[]>,
  host: string,
  ms: number,
): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((done) => {
    timer = setTimeout(() => done([]), ms);
    timer.unref?.();
  });
  try {
    return await Promise.race([resolve(host).catch(() => []), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function violation(
  rule: string,
  what: string,
  pointer: string,
  text: string,
  at: { index: number; length: number },
): Violation {
  const quote = excerpt(text, at.index, at.length);
  return {
    validator: 'network_restricted',
    rule,
    message: `Blocked ${what} in ${place(pointer)}: "${quote}". ${WHY}`,
    argument: pointer,
    excerpt: quote,
  };
}

function describeAddress(host: string, address: string | undefined): string {
  return address && address !== host.toLowerCase().replace(/^\[|\]$/g, '')
    ? `${host} (= ${address})`
    : host;
}

export async function checkNetwork(
  context: ValidationContext,
  options: ValidatorOptions,
): Promise<Violation[]> {
  const violations: Violation[] = [];
  const pending = new Map<string, PendingName>();
  /** One violation per argument and kind of address: the same URL read three ways is one finding. */
  const reported = new Set<string>();
  for (const leaf of context.walked.leaves) {
    const text = String(leaf.value);
    const { hosts, schemes } = hostsIn(leaf);
    for (const s of schemes)
      violations.push(
        violation(
          'blocked_scheme',
          `a ${s.scheme} URL, which reaches local files or speaks raw protocols,`,
          leaf.pointer,
          text,
          s,
        ),
      );
    for (const found of hosts) {
      const { verdict } = found;
      const key =
        verdict.kind === 'restricted' ? `${leaf.pointer} ${verdict.restriction.kind}` : '';
      if (verdict.kind === 'restricted' && !reported.has(key)) {
        reported.add(key);
        const what = `a request to ${describeAddress(verdict.host, verdict.address)}, ${verdict.restriction.label},`;
        violations.push(
          violation(
            `${verdict.restriction.kind.replace('-', '_')}_address`,
            what,
            leaf.pointer,
            text,
            found,
          ),
        );
      } else if (
        verdict.kind === 'name' &&
        (found.primary || verdict.host.includes('.')) &&
        !pending.has(verdict.host)
      ) {
        pending.set(verdict.host, { host: verdict.host, pointer: leaf.pointer, text, found });
      }
    }
  }
  if (pending.size > MAX_LOOKUPS) {
    const message = `Blocked the call: its arguments name ${pending.size} hosts, more than the ${MAX_LOOKUPS} the kernel resolves per call. ${WHY}`;
    return [
      ...violations,
      { validator: 'network_restricted', rule: 'too_many_hosts', message, argument: '' },
    ];
  }
  violations.push(...(await resolvedViolations([...pending.values()], options)));
  return violations;
}

async function resolvedViolations(
  names: PendingName[],
  options: ValidatorOptions,
): Promise<Violation[]> {
  const resolve = options.resolveHost ?? systemResolve;
  const ms = options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS;
  const answers = await Promise.all(names.map((n) => resolveWithin(resolve, n.host, ms)));
  const violations: Violation[] = [];
  names.forEach((name, i) => {
    for (const address of answers[i]) {
      const restriction = judgeResolved(address);
      if (!restriction) continue;
      const what = `a request to ${name.host}, which resolves to ${address}, ${restriction.label},`;
      violations.push(
        violation('resolves_to_restricted', what, name.pointer, name.text, name.found),
      );
      break;
    }
  });
  return violations;
}
