/** The names of the Unix sockets in a sandbox's bridge folder, shared by its two ends. */
export const PROXY_SOCKET = 'proxy.sock';

export function portSocket(port: number): string {
  return `port-${port}.sock`;
}
