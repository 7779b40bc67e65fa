// @ts-check
// Which room of the repository may import which (ARCHITECTURE.md): an ESLint rule that resolves every
// relative or aliased import to the file it names and refuses an arrow the table does not allow, or
// one that goes past a room's front door.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** The one module of the kernel its front ends may import (ARCHITECTURE.md, "The front door"). */
export const KERNEL_FRONT_DOOR = 'client/src/kernel/index.ts';

/**
 * Each room, and the rooms it may import. An arrow not listed here is an error. `doors` names, for a
 * room it may import, the one module it may import there.
 */
export const ROOMS = [
  { dir: 'shared/src', may: [] },
  { dir: 'server/src', may: ['shared/src'] },
  { dir: 'client/src/kernel', may: ['shared/src'] },
  {
    dir: 'client/src/cli',
    may: ['client/src/kernel', 'shared/src'],
    doors: { 'client/src/kernel': KERNEL_FRONT_DOOR },
  },
  {
    dir: 'client/src/vscode',
    may: ['client/src/kernel', 'shared/src'],
    doors: { 'client/src/kernel': KERNEL_FRONT_DOOR },
  },
  { dir: 'media/src', may: ['shared/src'] },
];

/** tsconfig.json's `paths`, as prefixes and the folders they stand for. */
function pathAliases() {
  const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
  return Object.entries(tsconfig.compilerOptions.paths ?? {}).map(([alias, [target]]) => ({
    prefix: alias.replace(/\*$/, ''),
    target: join(root, target.replace(/\*$/, '')),
  }));
}

const aliases = pathAliases();

/** @param {string} file an absolute path @returns {string} the path from the root, with `/` */
function fromRoot(file) {
  return relative(root, file).split(sep).join('/');
}

/** @param {string} file an absolute path */
function roomOf(file) {
  const path = fromRoot(file);
  return ROOMS.find((room) => path === room.dir || path.startsWith(`${room.dir}/`));
}

/**
 * Whether an import names the module `door` (a path from the root): by its path with or without the
 * extension, or, for an index module, by its folder.
 * @param {string} target an absolute path, as written @param {string} door
 */
function namesDoor(target, door) {
  const path = fromRoot(target).replace(/\/$/, '');
  const bare = door.replace(/\.ts$/, '');
  return [door, bare, `${bare}.js`, bare.replace(/\/index$/, '')].includes(path);
}

/** The absolute path an import names, or undefined for a package. */
function importedPath(source, importer) {
  if (source.startsWith('.')) return resolve(dirname(importer), source);
  const alias = aliases.find((a) => source.startsWith(a.prefix));
  return alias ? join(alias.target, source.slice(alias.prefix.length)) : undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const roomImports = {
  meta: {
    type: 'problem',
    docs: { description: 'imports follow the arrows between rooms (ARCHITECTURE.md)' },
    schema: [],
  },
  create(context) {
    const from = roomOf(context.filename);
    if (!from) return {};
    const check = (node) => {
      const source = node?.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = importedPath(source.value, context.filename);
      const to = target && roomOf(target);
      if (!to || to === from) return;
      const door = from.doors?.[to.dir];
      if (door && !namesDoor(target, door)) {
        context.report({
          node: source,
          message: `${from.dir} may import ${to.dir} only through its front door, ${door} (see ARCHITECTURE.md)`,
        });
        return;
      }
      if (from.may.includes(to.dir)) return;
      const allowed = from.may.length ? `only ${from.may.join(' and ')}` : 'no other room';
      context.report({
        node: source,
        message: `${from.dir} may not import ${to.dir} (it may import ${allowed}; see ARCHITECTURE.md)`,
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
