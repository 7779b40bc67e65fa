/** Resolving a host name to its addresses, every one of them, as the system resolver gives them. */
import { lookup } from 'node:dns/promises';

export type Resolver = (host: string) => Promise<string[]>;

export async function systemResolve(host: string): Promise<string[]> {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}
