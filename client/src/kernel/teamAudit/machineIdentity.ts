/**
 * Which machine a record comes from: an id made once per state root (`$XDG_STATE_HOME/mgp/machine-id`)
 * and the host name. Two state roots are two machines, even on one host; a host name alone is not
 * unique across a team, and renaming a host must not start a new chain.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isCode, writeFileAtomic } from '../store/atomicFile';

export interface MachineIdentity {
  id: string;
  host: string;
}

const ID = /^[0-9a-f-]{36}$/;

export async function machineIdentity(stateRoot: string): Promise<MachineIdentity> {
  const path = join(stateRoot, 'machine-id');
  try {
    const id = (await readFile(path, 'utf8')).trim();
    if (ID.test(id)) return { id, host: hostname() };
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
  const id = randomUUID();
  await mkdir(stateRoot, { recursive: true });
  await writeFileAtomic(path, `${id}\n`, 0o644);
  return { id, host: hostname() };
}
