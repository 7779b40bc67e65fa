/** Whether an address to listen on is this machine's loopback interface only. */
import { isIP } from 'node:net';

export function isLoopbackAddress(address: string): boolean {
  if (address === 'localhost') return true;
  if (isIP(address) === 4) return address.startsWith('127.');
  if (isIP(address) === 6) return address === '::1';
  return false;
}
