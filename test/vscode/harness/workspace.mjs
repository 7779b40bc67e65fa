// A disposable copy of the example workspace (with the built example servers beside it), so tests
// can edit files without touching the repository.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repo, scratchRoot } from './paths.mjs';

export function freshScratch(name) {
  const dir = join(scratchRoot, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function copyExampleWorkspace(scratch) {
  const builtServers = join(repo, 'examples/servers/dist');
  if (!existsSync(builtServers))
    throw new Error('examples/servers/dist is missing: run npm run build first');
  const examples = join(scratch, 'examples');
  cpSync(join(repo, 'examples/workspace'), join(examples, 'workspace'), { recursive: true });
  cpSync(builtServers, join(examples, 'servers/dist'), { recursive: true });
  return join(examples, 'workspace');
}
