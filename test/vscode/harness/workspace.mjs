// A disposable copy of the example workspace (with the built example servers beside it), so tests
// can edit files without touching the repository.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * A window on two servers that ask the client things: the example workspace's server-everything and
 * `asks` (test/fixtures/servers/client-features.js), both allowed to start, each with the tools
 * given allowed without a question.
 */
export function everythingAndAsksWindow({ everythingTools, asksTools }) {
  const list = (tools) => `[${tools.map((tool) => JSON.stringify(tool)).join(', ')}]`;
  return {
    env: { MGP_PREAPPROVED_SERVERS: 'everything,asks' },
    prepare(workspace) {
      const path = join(workspace, 'mgp.toml');
      const everything = readFileSync(path, 'utf8').split('[[servers]]')[2];
      const asks = fileURLToPath(
        new URL('../../fixtures/servers/client-features.js', import.meta.url),
      );
      writeFileSync(
        path,
        `[[servers]]${everything}approved_tools = ${list(everythingTools)}\n\n` +
          `[[servers]]\nid = "asks"\ncommand = ${JSON.stringify(process.execPath)}\n` +
          `args = [${JSON.stringify(asks)}]\napproved_tools = ${list(asksTools)}\n`,
      );
    },
  };
}
