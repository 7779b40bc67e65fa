/**
 * The imports a piece of code makes.
 *
 * Python: `import a.b as c, d`; `from a.b import c as d, (e, f)` (each imported name counts as `a.b.c`
 * too, so a blocklist entry `os.system` catches `from os import system`); `__import__('x')`;
 * `importlib.import_module('x')` and a bare `import_module('x')`. Relative imports (`from . import x`)
 * are local modules and are not checked.
 *
 * JavaScript/TypeScript: `import x from 'm'`, `import {a} from "m"`, `import * as m from 'm'`,
 * `import 'm'`, `export … from 'm'`, `import('m')`, `require('m')` (also `module.require`,
 * `process.mainModule.require`), `process.getBuiltinModule('m')`, and `process.binding('x')` / `process._linkedBinding('x')` as the
 * pseudo-module `process.binding`. A `node:` prefix is dropped (`node:fs` is `fs`).
 *
 * An import whose name is computed (`require(name)`, `__import__(x)`, `import(path)`), or `require`
 * passed around instead of called (`const r = require`, `require.call(…)`), is reported with an empty
 * module name: no list can be checked against it.
 */
import { literalAt, type CodeViews } from './codeLexer';

export interface ImportRef {
  /** The module (`os.path`, `fs/promises`); '' when the name is computed at run time. */
  module: string;
  /** Every name checked against the lists: the module, and for `from a import b` also `a.b`. */
  names: string[];
  /** Offset in the code, for the excerpt. */
  index: number;
}

const PY_STATEMENT = /(^|[;:])([ \t]*)(import|from)[ \t]+/gm;
const PY_IMPORT_LIST = /(?:[^;\n\\]|\\\n|\\.){0,1000}/y;
const PY_FROM =
  /(\.{0,10}[\w.]{0,200})\s+import\s+(\([^)]{0,2000}\)|(?:[^;\n\\]|\\\n|\\.){0,1000})/y;
const PY_DYNAMIC = /\b(?:__import__|import_module)\s*\(/g;
/** `import 'm'`, and the `from 'm'` that ends every other static import or re-export, however long its list. */
const JS_STATIC = /(?<![\w$.])(import|from)\s*(['"])([^'"\n]{1,500})\2/g;
const JS_DYNAMIC = /(?<![\w$.])import\s*\(|(?<![\w$])require\s*\(|\bgetBuiltinModule\s*\(/g;
/** `require` used other than as a direct call (`const r = require`, `require.call(…)`): its target is unknown. */
const JS_REQUIRE_REFERENCE = /(?<![\w$.])require\b(?!\s*\()(?!\s*\.\s*resolve\b)/g;
const JS_BINDING = /\bprocess\s*\.\s*(?:binding|_linkedBinding)\s*\(/g;

interface Named {
  name: string;
  /** `c` in `import a.b as c`. */
  alias?: string;
}

function named(list: string): Named[] {
  return list
    .replace(/[()\\\n]/g, ' ')
    .split(',')
    .map((part) => part.trim().split(/\s+/))
    .filter(([name]) => name && /^[\w.*]+$/.test(name))
    .map(([name, as, alias]) => ({ name, alias: as === 'as' && alias ? alias : undefined }));
}

/** One `import …` or `from … import …` statement: the modules, each with the name it binds. */
interface PythonStatement {
  at: number;
  /** For `from a import …`: `a`. */
  from?: string;
  names: Named[];
}

function readStatement(views: CodeViews, keyword: string, at: number): PythonStatement | undefined {
  if (keyword === 'import') {
    PY_IMPORT_LIST.lastIndex = at;
    return { at, names: named(PY_IMPORT_LIST.exec(views.stripped)?.[0] ?? '') };
  }
  PY_FROM.lastIndex = at;
  const from = PY_FROM.exec(views.stripped);
  if (!from || from[1] === '' || from[1].startsWith('.')) return undefined;
  return { at, from: from[1], names: named(from[2]).filter((n) => n.name !== '*') };
}

/** The import statements that are code (not inside strings); relative imports are left out. */
function pythonStatements(views: CodeViews): PythonStatement[] {
  const found: PythonStatement[] = [];
  for (const m of views.stripped.matchAll(PY_STATEMENT)) {
    const keywordAt = (m.index ?? 0) + m[1].length + m[2].length;
    if (!views.codeOnly.startsWith(m[3], keywordAt)) continue;
    const statement = readStatement(views, m[3], (m.index ?? 0) + m[0].length);
    if (statement) found.push(statement);
  }
  return found;
}

function pythonStatement({ at, from, names }: PythonStatement): ImportRef[] {
  if (from === undefined)
    return names.map(({ name }) => ({ module: name, names: [name], index: at }));
  return [
    { module: from, names: [from, ...names.map(({ name }) => `${from}.${name}`)], index: at },
  ];
}

function dynamicImport(views: CodeViews, match: RegExpMatchArray): ImportRef {
  const literal = literalAt(views, (match.index ?? 0) + match[0].length);
  const module = literal ? literal.value.replace(/^node:/, '') : '';
  return { module, names: module ? [module] : [], index: match.index ?? 0 };
}

export function pythonImports(views: CodeViews): ImportRef[] {
  const found = pythonStatements(views).flatMap(pythonStatement);
  for (const m of views.codeOnly.matchAll(PY_DYNAMIC)) found.push(dynamicImport(views, m));
  return found;
}

/**
 * What each imported Python name is bound to (`import os as o` → o: os; `from os import path` →
 * path: os.path), so `o.system(…)` can be judged as `os.system`.
 */
export function pythonBindings(views: CodeViews): Map<string, string> {
  const bound = new Map<string, string>();
  for (const { from, names } of pythonStatements(views)) {
    for (const { name, alias } of names) {
      const top = name.split('.')[0];
      if (from !== undefined) bound.set(alias ?? name, `${from}.${name}`);
      else bound.set(alias ?? top, alias ? name : top);
    }
  }
  return bound;
}

const PY_ATTRIBUTE = /(?<![\w.])([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)/g;

/** Attribute uses of imported names, as full dotted names (`o.system` → `os.system`). */
export function pythonAttributeUses(views: CodeViews): ImportRef[] {
  const bound = pythonBindings(views);
  if (bound.size === 0) return [];
  const uses: ImportRef[] = [];
  for (const m of views.codeOnly.matchAll(PY_ATTRIBUTE)) {
    const real = bound.get(m[1]);
    if (real)
      uses.push({ module: `${real}.${m[2]}`, names: [`${real}.${m[2]}`], index: m.index ?? 0 });
  }
  return uses;
}

export function javascriptImports(views: CodeViews): ImportRef[] {
  const found: ImportRef[] = [];
  for (const m of views.stripped.matchAll(JS_STATIC)) {
    if (!views.codeOnly.startsWith(m[1], m.index ?? 0)) continue;
    const module = m[3].replace(/^node:/, '');
    found.push({ module, names: [module], index: m.index ?? 0 });
  }
  for (const m of views.codeOnly.matchAll(JS_DYNAMIC)) found.push(dynamicImport(views, m));
  for (const m of views.codeOnly.matchAll(JS_REQUIRE_REFERENCE))
    found.push({ module: '', names: [], index: m.index ?? 0 });
  for (const m of views.codeOnly.matchAll(JS_BINDING))
    found.push({ module: 'process.binding', names: ['process.binding'], index: m.index ?? 0 });
  return found;
}

/**
 * The list entry that covers `name`: the name itself or a parent (`os` covers `os.path`; `fs` covers
 * `fs/promises`; `@scope/pkg` covers `@scope/pkg/sub`).
 */
export function coveringEntry(
  name: string,
  list: ReadonlySet<string>,
  separator: '.' | '/',
): string | undefined {
  if (list.has(name)) return name;
  const parts = name.split(separator);
  for (let k = parts.length - 1; k >= 1; k--) {
    const prefix = parts.slice(0, k).join(separator);
    if (list.has(prefix)) return prefix;
  }
  return undefined;
}
