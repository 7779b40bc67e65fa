// One bundler, three kinds of entry: the extension and the language server (node, CommonJS, `vscode`
// external), the webviews (browser). The CLI and the example servers are node entries too.
// `--tests` transpiles sources and tests file by file into out/ (or `--outdir DIR`) for the node test runners.
// `--watch` rebuilds the bundles on change.
import * as esbuild from 'esbuild';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('.', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const define = { __MGP_VERSION__: JSON.stringify(version) };
const production = process.env.NODE_ENV === 'production' || process.argv.includes('--production');

/** @type {esbuild.BuildOptions} */
const nodeBundle = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // An ESM bundle breaks on ajv's dynamic require; CommonJS everywhere on the node side.
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  external: ['vscode'],
  // jsonc-parser's `main` is a UMD build whose inner requires a bundle cannot follow: take its ESM.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  define,
  logLevel: 'warning',
};

/**
 * The validators' parsers, each a bundle of its own loaded from next to the bundle that needs it at
 * its first use (bench/validators.mjs builds them too):
 * - sqlParser: the SQL grammars of the readonly validator (~1 MB), at the first SQL argument;
 * - shellParser: tree-sitter's Bash grammar (WebAssembly, the .wasm files copied next to it by
 *   wasmFiles below), at the first command line;
 * - codeParser: acorn, eslint-scope and Lezer's Python grammar, at the first code argument read at the
 *   code safety `strict` or `readonly` level.
 */
export const validatorParsers = {
  sqlParser: 'client/src/kernel/security/validators/sqlDialects.ts',
  shellParser: 'client/src/kernel/security/validators/shellGrammar.ts',
  codeParser: 'client/src/kernel/security/validators/codeGrammar.ts',
};

function exampleServerEntries() {
  const dir = join(root, 'examples/servers');
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'dist')
    .map((d) => ({ in: join(dir, d.name, 'src/index.ts'), out: d.name }));
}

/** One browser bundle per folder of media/src that has a main.ts: media/src/<panel>/main.ts → media/dist/<panel>.js. */
function webviewEntries() {
  const dir = join(root, 'media/src');
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'main.ts')))
    .map((d) => ({ in: join(dir, d.name, 'main.ts'), out: d.name }));
}

/** @returns {esbuild.BuildOptions[]} */
function bundles() {
  return [
    // The extension's entry stays small (the editor reads and compiles it before activate() runs);
    // what it activates, the kernel and the MCP SDK with it, is a bundle of its own, required then.
    {
      ...nodeBundle,
      entryPoints: { extension: 'client/src/vscode/extension.ts' },
      outdir: 'dist',
      external: [...nodeBundle.external, './activation'],
    },
    {
      ...nodeBundle,
      entryPoints: { activation: 'client/src/vscode/activation.ts' },
      outdir: 'dist',
    },
    { ...nodeBundle, entryPoints: { server: 'server/src/server.ts' }, outdir: 'dist' },
    {
      ...nodeBundle,
      entryPoints: { cli: 'client/src/cli/main.ts' },
      outdir: 'dist',
      banner: { js: '#!/usr/bin/env node' },
      // The OS keyring's native module, an optional dependency: loaded from node_modules at run time.
      external: [...nodeBundle.external, '@napi-rs/keyring'],
    },
    // The cl100k tokenizer (~1 MB) once for the extension and the CLI: loaded at first use from next to them.
    {
      ...nodeBundle,
      entryPoints: { tokenizer: 'client/src/kernel/discovery/cl100k.ts' },
      outdir: 'dist',
    },
    { ...nodeBundle, entryPoints: validatorParsers, outdir: 'dist' },
    // The program a generated tool runs in (MGP §16.6): a server process of its own, running the tool's
    // code in QuickJS (WebAssembly, quickjs.wasm copied next to it by wasmFiles below).
    {
      ...nodeBundle,
      entryPoints: { generatedServer: 'client/src/kernel/toolCreation/generatedServer.ts' },
      outdir: 'dist',
      // QuickJS's module loader is an ES module that looks for itself through import.meta.url.
      define: { ...define, 'import.meta.url': '__importMetaUrl' },
      banner: { js: "var __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
    },
    // The first program inside a sandbox with a network of its own: it bridges the allowed ports.
    {
      ...nodeBundle,
      entryPoints: { sandboxBridge: 'client/src/kernel/sandbox/sandboxBridge.ts' },
      outdir: 'dist',
    },
    // The audit log's writer thread (client/src/kernel/audit/auditWorker.ts): started from next to the bundles.
    {
      ...nodeBundle,
      entryPoints: { auditWorker: 'client/src/kernel/audit/auditWorker.ts' },
      outdir: 'dist',
    },
    { ...nodeBundle, entryPoints: exampleServerEntries(), outdir: 'examples/servers/dist' },
    // The server kit as its package ships it, and the minimal server built on it (MGP §17.7–17.8).
    {
      ...nodeBundle,
      entryPoints: { index: 'packages/mgp-server-kit/src/index.ts' },
      outdir: 'packages/mgp-server-kit/dist',
      external: [...nodeBundle.external, '@modelcontextprotocol/sdk', 'zod'],
    },
    {
      ...nodeBundle,
      entryPoints: { server: 'examples/minimal-server/src/server.ts' },
      outdir: 'examples/minimal-server/dist',
      alias: { ...nodeBundle.alias, 'mgp-server-kit': './packages/mgp-server-kit/src/index.ts' },
    },
    {
      bundle: true,
      platform: 'browser',
      target: 'es2022',
      format: 'iife',
      sourcemap: production ? false : 'linked',
      minify: production,
      entryPoints: webviewEntries(),
      outdir: 'media/dist',
      logLevel: 'warning',
    },
  ];
}

function listTypeScript(dir, skip) {
  const found = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (skip.some((s) => path.startsWith(s))) continue;
    if (entry.isDirectory()) found.push(...listTypeScript(path, skip));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** tsconfig.json's `paths` (`@shared/*` → `./shared/src/*`): the bundles resolve them themselves. */
function pathAliases() {
  const { paths = {} } = JSON.parse(
    readFileSync(join(root, 'tsconfig.json'), 'utf8'),
  ).compilerOptions;
  return Object.entries(paths).map(([alias, [target]]) => ({
    prefix: alias.replace(/\*$/, ''),
    target: join(root, target.replace(/\*$/, '')),
  }));
}

/**
 * The test build writes one file per source, each import left for node to resolve at run time, so an
 * alias must become the relative path it stands for. esbuild calls resolve plugins only when bundling:
 * the test build bundles with every import external, and this plugin rewrites the aliased ones.
 */
function importsAsWritten() {
  const aliases = pathAliases();
  return {
    name: 'imports-as-written',
    setup(build) {
      build.onResolve({ filter: /.*/ }, ({ path, kind, importer }) => {
        if (kind === 'entry-point') return undefined;
        const alias = aliases.find((a) => path.startsWith(a.prefix));
        if (!alias) return { path, external: true };
        const target = join(alias.target, path.slice(alias.prefix.length));
        const relativePath = relative(dirname(importer), target);
        return {
          path: relativePath.startsWith('.') ? relativePath : `./${relativePath}`,
          external: true,
        };
      });
    },
  };
}

function testOutDir() {
  const at = process.argv.indexOf('--outdir');
  return at === -1 ? 'out' : process.argv[at + 1];
}

async function buildTests() {
  const outdir = testOutDir();
  rmSync(join(root, outdir), { recursive: true, force: true });
  const skip = ['test/fixtures', 'test/vscode/harness', 'media'];
  const entryPoints = ['client/src', 'server/src', 'shared/src', 'test'].flatMap((d) =>
    listTypeScript(d, skip),
  );
  await esbuild.build({
    entryPoints,
    bundle: true,
    plugins: [importsAsWritten()],
    outdir,
    outbase: '.',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    define,
    logLevel: 'warning',
  });
  console.log(
    `transpiled ${entryPoints.length} files into ${relative(process.cwd(), join(root, outdir)) || outdir}/`,
  );
}

/** WebAssembly the bundles load at run time, copied next to them. */
export const wasmFiles = [
  ['node_modules/web-tree-sitter/tree-sitter.wasm', 'tree-sitter.wasm'],
  ['node_modules/tree-sitter-bash/tree-sitter-bash.wasm', 'tree-sitter-bash.wasm'],
  ['node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm', 'quickjs.wasm'],
];

function copyWasm() {
  mkdirSync(join(root, 'dist'), { recursive: true });
  for (const [from, to] of wasmFiles) copyFileSync(join(root, from), join(root, 'dist', to));
}

async function main() {
  process.chdir(root);
  if (process.argv.includes('--tests')) {
    await buildTests();
    return;
  }
  if (process.argv.includes('--watch')) {
    copyWasm();
    const contexts = await Promise.all(bundles().map((options) => esbuild.context(options)));
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    console.log('watching for changes…');
    return;
  }
  const started = Date.now();
  for (const dir of ['dist', 'media/dist', 'examples/servers/dist'])
    rmSync(join(root, dir), { recursive: true, force: true });
  await Promise.all(bundles().map((options) => esbuild.build(options)));
  copyWasm();
  console.log(
    `built extension, language server, cli, webviews and example servers in ${Date.now() - started} ms`,
  );
}

// Imported (bench/validators.mjs reads the lists above), it builds nothing.
if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1]))
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
