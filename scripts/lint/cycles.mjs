// @ts-check
// Import cycles (ARCHITECTURE.md): between files, as `madge --circular` finds them, and between rooms,
// which madge cannot see: kernel/config importing kernel/security while kernel/security imports
// kernel/config is a cycle even when no file imports itself back. A room is a folder directly under
// one of the trees below (a file directly in the tree is a room of its own). Prints each cycle (for
// rooms, with one import that makes each of its arrows), and exits 1 if there is any.
//
// Run: node scripts/lint/cycles.mjs [root]     (root: the repository, by default the one holding this)
import madge from 'madge';
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The trees whose folders must not import each other in a circle. */
export const TREES = [
  'client/src/kernel',
  'client/src/vscode',
  'client/src/cli',
  'server/src',
  'shared/src',
];

/** @param {string} file a path from the root @returns {string | undefined} */
function roomOf(file) {
  const tree = TREES.find((t) => file.startsWith(`${t}/`));
  if (!tree) return undefined;
  const [first, ...rest] = file.slice(tree.length + 1).split('/');
  return rest.length ? `${tree}/${first}/` : `${tree}/${first}`;
}

/**
 * The arrows between rooms, each with one import that makes it.
 * @param {Record<string, string[]>} graph file → files it imports
 */
export function roomArrows(graph) {
  /** @type {Map<string, Map<string, string>>} */
  const arrows = new Map();
  for (const [file, imports] of Object.entries(graph)) {
    const from = roomOf(file);
    if (!from) continue;
    for (const imported of imports) {
      const to = roomOf(imported);
      if (!to || to === from) continue;
      if (!arrows.has(from)) arrows.set(from, new Map());
      const targets = /** @type {Map<string, string>} */ (arrows.get(from));
      if (!targets.has(to)) targets.set(to, `${file} → ${imported}`);
    }
  }
  return arrows;
}

/**
 * The rooms that import each other in a circle, as strongly connected components (Tarjan).
 * @param {Map<string, Map<string, string>>} arrows
 * @returns {string[][]}
 */
export function roomCycles(arrows) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (room) => {
    index.set(room, next);
    low.set(room, next++);
    stack.push(room);
    onStack.add(room);
    for (const to of arrows.get(room)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(room, Math.min(low.get(room), low.get(to)));
      } else if (onStack.has(to)) low.set(room, Math.min(low.get(room), index.get(to)));
    }
    if (low.get(room) !== index.get(room)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== room);
    if (component.length > 1) found.push(component.sort());
  };
  for (const room of arrows.keys()) if (!index.has(room)) visit(room);
  return found;
}

/** @param {string} root @returns {Promise<{ files: string[], rooms: string[] }>} one line per cycle or arrow */
export async function findCycles(root) {
  const result = await madge(
    TREES.map((t) => join(root, t)).filter((tree) => existsSync(tree)),
    { baseDir: root, fileExtensions: ['ts'], tsConfig: join(root, 'tsconfig.json') },
  );
  const files = result
    .circular()
    .map((cycle, i) => `${i + 1}) ${[...cycle, cycle[0]].join(' → ')}`);
  return { files, rooms: roomCycleLines(roomArrows(result.obj())) };
}

/** @param {Map<string, Map<string, string>>} arrows @returns {string[]} */
function roomCycleLines(arrows) {
  return roomCycles(arrows).flatMap((component, i) => [
    `${i + 1}) ${component.join(' ⇄ ')}`,
    ...component.flatMap((from) =>
      component
        .filter((to) => arrows.get(from)?.has(to))
        .map((to) => `     ${from} → ${to}: ${arrows.get(from)?.get(to)}`),
    ),
  ]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '../..'));
  const { files, rooms } = await findCycles(root);
  const where = relative(process.cwd(), root) || '.';
  if (files.length) console.error(`Files that import each other (${where}):\n${files.join('\n')}`);
  if (rooms.length)
    console.error(`Folders that import each other (${where}):\n${rooms.join('\n')}`);
  if (files.length || rooms.length) process.exit(1);
}
