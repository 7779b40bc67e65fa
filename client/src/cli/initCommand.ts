/**
 * `mgp init server [DIR]`: a new MGP server to start from, the minimal example of this repository
 * (TypeScript on the official SDK with the server kit, MGP §17.8), with a package.json whose
 * `validate` script runs `mgp validate server`. It writes nothing when any file it would write is
 * there already. The kit is not on npm: the project depends on this checkout's copy of it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { UsageError } from './flags';
import type { Io } from './io';

/** The repository this CLI was built in: dist/cli.js's parent, or the sources' root in tests. */
function repositoryRoot(): string | undefined {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, 'examples/minimal-server/src/server.ts'))) return dir;
  return undefined;
}

function versionOf(root: string, name: string, fallback: string): string {
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      devDependencies?: Record<string, string>;
      dependencies?: Record<string, string>;
    };
    return manifest.devDependencies?.[name] ?? manifest.dependencies?.[name] ?? fallback;
  } catch {
    return fallback;
  }
}

/** The files of the new project, by path relative to its folder. */
export function serverProject(folder: string, root: string): Record<string, string> {
  const name =
    basename(folder)
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'mgp-server';
  const cli = join(root, 'dist/cli.js');
  const example = readFileSync(join(root, 'examples/minimal-server/src/server.ts'), 'utf8');
  const source = example.replace(
    /mgp validate server -- node examples\/minimal-server\/dist\/server\.js/,
    'npm run validate',
  );
  const manifest = {
    name,
    version: '0.1.0',
    private: true,
    description: 'An MGP server: an MCP server on the official SDK, with the MGP server kit',
    scripts: {
      build:
        'esbuild src/server.ts --bundle --platform=node --format=cjs --preserve-symlinks --outfile=dist/server.js',
      start: 'node dist/server.js',
      validate: `node ${JSON.stringify(cli)} validate server --require-tier 2 -- node dist/server.js`,
    },
    dependencies: {
      '@modelcontextprotocol/sdk': versionOf(root, '@modelcontextprotocol/sdk', '1.32.2'),
      'mgp-server-kit': `file:${join(root, 'packages/mgp-server-kit')}`,
      zod: versionOf(root, 'zod', '4.1.12'),
    },
    devDependencies: { esbuild: versionOf(root, 'esbuild', '0.25.0') },
  };
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      strict: true,
      noEmit: true,
      esModuleInterop: true,
      skipLibCheck: true,
    },
    include: ['src'],
  };
  return {
    'package.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
    'src/server.ts': source,
    '.gitignore': 'node_modules/\ndist/\n',
    'README.md': `# ${name}

An MCP server on the official TypeScript SDK, made an MGP server by the MGP server kit
(\`enableMgp\`, \`mgp.secure\`, \`mgpError\`). It reaches MGP Tier 2.

    npm install
    npm run build
    npm run validate     # mgp validate server --require-tier 2 -- node dist/server.js

Add tools with \`server.registerTool\` as for any MCP server, then give each its security
metadata with \`mgp.secure(name, { risk_level, permissions_required })\` (MGP §4), and list every
permission they need in \`enableMgp(server, { permissions })\` (MGP §3).
`,
  };
}

export async function runInit(args: string[], io: Io): Promise<number> {
  const [kind, folder, ...extra] = args;
  if (kind === '--help' || kind === '-h') {
    io.out(
      'mgp init server [DIR]   write a minimal MGP server to start from into DIR (default: .)',
    );
    return 0;
  }
  if (kind !== 'server') throw new UsageError('init what? mgp init server [DIR]');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const root = repositoryRoot();
  if (!root)
    throw new UsageError(
      'mgp init server needs a checkout of the MGP Kernel repository (the server kit is not on npm yet): run dist/cli.js of a checkout',
    );
  const target = resolve(folder ?? '.');
  const files = serverProject(target, root);
  const taken = Object.keys(files).filter((path) => existsSync(join(target, path)));
  if (taken.length) {
    io.err(
      `mgp init: ${taken.map((path) => join(relative(process.cwd(), target) || '.', path)).join(', ')} already exist${taken.length === 1 ? 's' : ''}: nothing written`,
    );
    return 1;
  }
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(target, path)), { recursive: true });
    await writeFile(join(target, path), text, { flag: 'wx' });
  }
  io.out(`Wrote an MGP server to ${target}:`);
  for (const path of Object.keys(files)) io.out(`  ${path}`);
  io.out(
    `Next: cd ${relative(process.cwd(), target) || '.'} && npm install && npm run build && npm run validate`,
  );
  return 0;
}
