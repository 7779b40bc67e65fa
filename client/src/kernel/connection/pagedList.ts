/**
 * Every page of a paginated MCP list (`tools/list`, `resources/list`, …), within bounds: a server
 * that sends a `nextCursor` forever, repeats a cursor, or lists more than anyone could use would
 * otherwise grow the kernel's memory without end. Past a bound the listing fails with an error that
 * names it, and the server is not connected.
 */
import { KernelError, RESOURCE_EXHAUSTED } from '../domain/errors';

export const MAX_LIST_PAGES = 100;
export const MAX_LIST_ITEMS = 5000;

const count = (n: number) => n.toLocaleString('en-US');

function exhausted(method: string, what: string): KernelError {
  return new KernelError(
    'LimitExceeded',
    `${method}: the server lists ${what}; the kernel stops there and does not connect it`,
    RESOURCE_EXHAUSTED,
  );
}

export async function pagedList<T>(
  method: string,
  noun: string,
  fetchPage: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> {
  const all: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await fetchPage(cursor);
    if (all.length + page.items.length > MAX_LIST_ITEMS)
      throw exhausted(method, `more than ${count(MAX_LIST_ITEMS)} ${noun}`);
    all.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) return all;
    if (seen.has(cursor)) throw exhausted(method, `the same cursor twice (an endless loop)`);
    if (pages >= MAX_LIST_PAGES)
      throw exhausted(method, `more than ${count(MAX_LIST_PAGES)} pages`);
    seen.add(cursor);
  }
}
