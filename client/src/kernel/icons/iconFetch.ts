/**
 * Downloads one https icon for the kernel, never for the server: bounded in bytes and time, no
 * redirects, no cookies or credentials, and never from a loopback, private, link-local or metadata
 * address. The name is resolved here and the connection goes to the address that was checked (the
 * socket's `lookup` is ours), so a name cannot resolve publicly for the check and privately for the
 * connection. A name with any restricted address is refused, as network_restricted does (MGP §4.5).
 */
import type { LookupFunction } from 'node:net';
import { request } from 'node:https';
import { judgeResolved } from '../security/validators/hosts';
import { systemResolve } from '../security/validators/network';
import { ICON_MAX_BYTES, judgeImageBytes, type IconMime } from './iconPolicy';

export const ICON_FETCH_TIMEOUT_MS = 10_000;

export interface IconFetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
  /** Resolves a host name to its addresses (tests give their own). */
  resolve?: (host: string) => Promise<string[]>;
  /** Certificate authorities to trust instead of the system's (tests give their own). */
  ca?: string | Buffer;
  /** Whether an address may be connected to; by default none that network_restricted refuses. */
  addressAllowed?: (address: string) => boolean;
}

export type FetchedIcon =
  { ok: true; bytes: Buffer; mimeType: IconMime } | { ok: false; reason: string };

/** A lookup that hands the socket only an address the check let through. */
function checkedLookup(
  resolve: (host: string) => Promise<string[]>,
  addressAllowed?: (address: string) => boolean,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.find((a) =>
          addressAllowed ? !addressAllowed(a) : judgeResolved(a),
        );
        if (refused !== undefined)
          return callback(
            new Error(
              `${hostname} resolves to ${refused}, ${judgeResolved(refused)?.label ?? 'an address not allowed'}`,
            ),
            '',
            0,
          );
        const address = addresses[0];
        if (!address) return callback(new Error(`${hostname} does not resolve`), '', 0);
        const family = address.includes(':') ? 6 : 4;
        if (options.all) return (callback as never as AllCallback)(null, [{ address, family }]);
        callback(null, address, family);
      },
      (error: Error) => callback(error, '', 0),
    );
  };
}

type AllCallback = (error: Error | null, addresses: { address: string; family: number }[]) => void;

/** Fetches `url` (https only) as an icon, or says why not. Never throws. */
export function fetchIcon(url: URL, options: IconFetchOptions = {}): Promise<FetchedIcon> {
  if (url.protocol !== 'https:') return Promise.resolve({ ok: false, reason: 'not an https URL' });
  const maxBytes = options.maxBytes ?? ICON_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? ICON_FETCH_TIMEOUT_MS;
  return new Promise((settle) => {
    let done = false;
    const finish = (result: FetchedIcon) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      settle(result);
    };
    const timer = setTimeout(
      () => finish({ ok: false, reason: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    const req = request(url, {
      method: 'GET',
      headers: { accept: 'image/png, image/jpeg, image/gif, image/webp' },
      lookup: checkedLookup(options.resolve ?? systemResolve, options.addressAllowed),
      agent: false,
      ...(options.ca ? { ca: options.ca } : {}),
    });
    req.on('error', (error) => finish({ ok: false, reason: error.message }));
    req.on('response', (response) => {
      if (response.statusCode !== 200)
        return finish({
          ok: false,
          reason: `HTTP ${response.statusCode} (redirects are not followed)`,
        });
      const length = Number(response.headers['content-length']);
      if (length > maxBytes) return finish({ ok: false, reason: `larger than ${maxBytes} bytes` });
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return finish({ ok: false, reason: `larger than ${maxBytes} bytes` });
        chunks.push(chunk);
      });
      response.on('error', (error) => finish({ ok: false, reason: error.message }));
      response.on('end', () => {
        const bytes = Buffer.concat(chunks);
        // A generic type (application/octet-stream) says nothing; another image type is a lie.
        const type = response.headers['content-type'];
        const judged = judgeImageBytes(bytes, type?.startsWith('image/') ? type : undefined);
        finish(judged.ok ? { ok: true, bytes, mimeType: judged.mimeType } : judged);
      });
    });
    req.end();
  });
}
