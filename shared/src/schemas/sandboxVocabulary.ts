/** The closed sets of `[kernel.sandbox]` and `[servers.sandbox]` (mgpSandbox.ts). */
import { vocabulary } from './vocabulary';

/** `[servers.sandbox] mode`: whether a stdio server runs inside an operating-system sandbox. */
export const SANDBOX_MODES = vocabulary([
  {
    name: 'auto',
    description:
      'Sandboxed where the platform gives a sandbox; otherwise started unconfined, and shown so',
  },
  {
    name: 'required',
    description:
      'Sandboxed, or not started: the server refuses to start where the platform has no sandbox',
  },
  {
    name: 'off',
    description: 'Never sandboxed: the server runs with your rights (your own config only)',
  },
]);

/** `[servers.sandbox] network`: what a sandboxed server may reach. */
export const NETWORK_ACCESS = vocabulary([
  { name: 'none', description: 'No network: only a loopback of its own' },
  { name: 'loopback', description: "The listed ports on this machine's loopback, nothing else" },
  { name: 'domains', description: "The listed domains, through the kernel's HTTP proxy" },
  { name: 'all', description: 'The network as you have it' },
]);
