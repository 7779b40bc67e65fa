/**
 * One address a connection may go to for a host name, resolved here: none that network_restricted
 * refuses (loopback, private, link-local, metadata; MGP §4.5). A name with any such address is
 * refused, so it cannot resolve publicly for the check and privately for the connection.
 */
import { judgeResolved } from './hosts';
import { systemResolve } from './resolve';

export async function publicAddress(host: string): Promise<{ address?: string; refused?: string }> {
  const addresses = await systemResolve(host).catch(() => [] as string[]);
  if (!addresses.length) return { refused: `${host} does not resolve` };
  const restricted = addresses.find((address) => judgeResolved(address));
  if (restricted)
    return { refused: `${host} resolves to ${restricted}, ${judgeResolved(restricted)?.label}` };
  return { address: addresses[0] };
}
