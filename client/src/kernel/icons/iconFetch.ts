/**
 * Downloads one https icon for the kernel, never for the server: bounded in bytes and time, no
 * redirects, no cookies or credentials, and only where the destination guard lets a request made on
 * a server's word go (net/destinationGuard.ts): never a loopback, private, link-local or metadata
 * address, the name resolved and the connection made to the address that was checked.
 */
import { guardedFetch } from '../net/guardedFetch';
import { judgeResolved } from '../net/hosts';
import type { Resolver } from '../net/resolve';
import { ICON_MAX_BYTES, judgeImageBytes, type IconMime } from './iconPolicy';

export const ICON_FETCH_TIMEOUT_MS = 10_000;

export interface IconFetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
  /** Resolves a host name to its addresses (tests give their own). */
  resolve?: Resolver;
  /** Certificate authorities to trust instead of the system's (tests give their own). */
  ca?: string | Buffer;
  /** Whether an address may be connected to; by default none that the guard refuses. */
  addressAllowed?: (address: string) => boolean;
}

export type FetchedIcon =
  { ok: true; bytes: Buffer; mimeType: IconMime } | { ok: false; reason: string };

async function readBounded(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`larger than ${maxBytes} bytes`);
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks);
}

async function download(
  url: URL,
  options: IconFetchOptions,
  signal: AbortSignal,
): Promise<FetchedIcon> {
  const maxBytes = options.maxBytes ?? ICON_MAX_BYTES;
  const allowed = options.addressAllowed;
  const get = guardedFetch({
    resolve: options.resolve,
    ca: options.ca,
    ...(allowed && {
      restrictionOf: (address: string) =>
        allowed(address)
          ? undefined
          : (judgeResolved(address) ?? { kind: 'refused', label: 'an address not allowed' }),
    }),
  });
  const response = await get(url, {
    headers: { accept: 'image/png, image/jpeg, image/gif, image/webp' },
    redirect: 'manual',
    signal,
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    return { ok: false, reason: `HTTP ${response.status} (redirects are not followed)` };
  }
  if (Number(response.headers.get('content-length')) > maxBytes || !response.body) {
    await response.body?.cancel();
    return { ok: false, reason: response.body ? `larger than ${maxBytes} bytes` : 'no body' };
  }
  const bytes = await readBounded(response.body, maxBytes);
  // A generic type (application/octet-stream) says nothing; another image type is a lie.
  const type = response.headers.get('content-type') ?? undefined;
  const judged = judgeImageBytes(bytes, type?.startsWith('image/') ? type : undefined);
  return judged.ok ? { ok: true, bytes, mimeType: judged.mimeType } : judged;
}

/** Fetches `url` (https only) as an icon, or says why not. Never throws. */
export async function fetchIcon(url: URL, options: IconFetchOptions = {}): Promise<FetchedIcon> {
  if (url.protocol !== 'https:') return { ok: false, reason: 'not an https URL' };
  const timeoutMs = options.timeoutMs ?? ICON_FETCH_TIMEOUT_MS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    return await download(url, options, deadline.signal);
  } catch (error) {
    if (deadline.signal.aborted) return { ok: false, reason: `no answer within ${timeoutMs} ms` };
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
