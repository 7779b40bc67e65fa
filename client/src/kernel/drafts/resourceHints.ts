/**
 * MCP draft §5, client resource hints: a client MAY tell servers `{ mem_mb, cores, gpu }` out of band,
 * so that they adapt their plans. It describes the user's machine, so the kernel sends it only when
 * the user turned it on in their own settings (the editor's user settings, the `mgp` command's
 * environment), never because a workspace file says so. Out of band here means outside the tool
 * calls: once, at initialize, as an experimental client capability that a server which does not
 * speak the draft ignores.
 */
import { availableParallelism, totalmem } from 'node:os';
import type { ConnectionService } from '../connection/service';

/** The capability's name under `capabilities.experimental`. */
export const CLIENT_HINTS_CAPABILITY = 'client_resource_hints';

export interface ClientResourceHints {
  /** The machine's memory, in MiB. */
  mem_mb: number;
  /** The processors the kernel's process may use. */
  cores: number;
  /** What the user said: the kernel does not look for a GPU. */
  gpu: boolean;
}

/** The user's choice: off (the default), or on, saying whether the machine has a GPU. */
export interface ClientHintsChoice {
  enabled: boolean;
  gpu?: boolean;
}

/** This machine's hints, as the draft shapes them. */
export function machineHints(gpu: boolean): ClientResourceHints {
  return {
    mem_mb: Math.floor(totalmem() / (1024 * 1024)),
    cores: availableParallelism(),
    gpu,
  };
}

/**
 * `MGP_CLIENT_RESOURCE_HINTS` for the `mgp` command: `1` (or `on`) sends them with `gpu: false`,
 * `gpu` with `gpu: true`; unset, empty or `0` sends none. Anything else is an error, not a guess.
 */
export function clientHintsFromEnv(value: string | undefined): ClientHintsChoice {
  const word = (value ?? '').trim().toLowerCase();
  if (word === '' || word === '0' || word === 'off') return { enabled: false };
  if (word === '1' || word === 'on') return { enabled: true, gpu: false };
  if (word === 'gpu') return { enabled: true, gpu: true };
  throw new Error(
    `MGP_CLIENT_RESOURCE_HINTS is "${value}": use 1 (send the hints), gpu (send them, with a GPU) or 0`,
  );
}

/** Adds the hints to the client's capabilities at initialize while the user has them on. */
export function clientHintsService(choice: () => ClientHintsChoice): ConnectionService {
  return {
    capabilities() {
      const { enabled, gpu } = choice();
      if (!enabled) return {};
      return { experimental: { [CLIENT_HINTS_CAPABILITY]: machineHints(gpu === true) } };
    },
  };
}
