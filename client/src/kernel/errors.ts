/**
 * Local errors of the kernel, with a string code (DESIGN.md: wire errors carry JSON-RPC/MGP numbers,
 * local ones a name such as `NotConnected` or `Timeout`).
 */
export type KernelErrorCode =
  | 'NotConnected'
  | 'Timeout'
  | 'ServerDraining'
  | 'CommandRejected'
  | 'UrlRejected'
  | 'BadUrl'
  | 'UnknownServer'
  | 'UnknownTool'
  | 'StartFailed'
  | 'MessageTooLarge';

export class KernelError extends Error {
  constructor(readonly code: KernelErrorCode, message: string, readonly wireCode?: number) {
    super(message);
    this.name = 'KernelError';
  }
}

/** MGP §14.3: 2001 SERVER_DRAINING. */
export const SERVER_DRAINING = 2001;
