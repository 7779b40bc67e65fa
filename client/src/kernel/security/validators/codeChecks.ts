/**
 * The checks of one code string in one language (MGP §7.2): imports against the lists, patterns, and at
 * the `readonly` level write operations. Each finding carries the §7.4 violation text.
 */
import type { CodeSafetyLevel } from '../../domain/security';
import { bracketsTooDeepAt, PYTHON_MAX_BRACKETS } from './codeDepth';
import { callArguments, lex, literalAt, type CodeLanguage, type CodeViews } from './codeLexer';
import { READONLY_FORBIDDEN_IMPORTS, WRITE_OPERATIONS, type CodePattern } from './codeDefaults';
import {
  coveringEntry,
  javascriptImports,
  pythonAttributeUses,
  pythonImports,
  type ImportRef,
} from './codeImports';
import { pythonDynamicAccess } from './codeDynamicAccess';
import { normalizeCode } from './codeNormalize';
import type { CodeFinding } from './codeFinding';
import { checkParsedJavaScript } from './codeParsedJs';
import { checkParsedPython } from './codeParsedPython';
import { findSqlWrite } from './sqlCheck';

export type { CodeFinding } from './codeFinding';

/** The lists in force for one language. */
export interface EffectiveLists {
  blocked: ReadonlySet<string>;
  /** Undefined at `standard`: no allowlist is enforced there. */
  allowed?: ReadonlySet<string>;
  patterns: readonly CodePattern[];
}

const READONLY_FORBIDDEN = {
  python: new Set(READONLY_FORBIDDEN_IMPORTS.python),
  javascript: new Set(READONLY_FORBIDDEN_IMPORTS.javascript),
};

function importFindings(
  ref: ImportRef,
  language: CodeLanguage,
  lists: EffectiveLists,
  level: CodeSafetyLevel,
): CodeFinding[] {
  if (ref.module === '')
    return [
      {
        rule: 'dynamic_import',
        text: 'Dynamic import with a computed module name',
        index: ref.index,
      },
    ];
  const sep = language === 'python' ? '.' : '/';
  const blocked = ref.names
    .map((n) => (coveringEntry(n, lists.blocked, sep) ? n : undefined))
    .find(Boolean);
  if (blocked)
    return [{ rule: 'blocked_import', text: `Blocked import: '${blocked}'`, index: ref.index }];
  const forbidden =
    level === 'readonly' &&
    ref.names.find((n) => coveringEntry(n, READONLY_FORBIDDEN[language], sep));
  if (forbidden)
    return [
      {
        rule: 'write_operation',
        text: `Blocked import at the readonly level: '${forbidden}'`,
        index: ref.index,
      },
    ];
  const allowed = lists.allowed;
  if (!allowed) return [];
  const [module, ...imported] = ref.names;
  const ok =
    coveringEntry(module, allowed, sep) !== undefined ||
    (imported.length > 0 && imported.every((n) => coveringEntry(n, allowed, sep)));
  return ok
    ? []
    : [
        {
          rule: 'import_not_allowed',
          text: `Import not in allowlist: '${module}'`,
          index: ref.index,
        },
      ];
}

/** `import os as o; o.system(…)`: a blocked dotted entry reached through an imported name. */
function attributeFindings(views: CodeViews, lists: EffectiveLists): CodeFinding[] {
  const found: CodeFinding[] = [];
  for (const use of pythonAttributeUses(views)) {
    if (lists.blocked.has(use.module))
      found.push({
        rule: 'blocked_import',
        text: `Blocked import: '${use.module}'`,
        index: use.index,
      });
  }
  return found;
}

function patternFindings(
  views: CodeViews,
  patterns: readonly CodePattern[],
  rule: CodeFinding['rule'],
  label: (name: string) => string,
): CodeFinding[] {
  const found: CodeFinding[] = [];
  for (const pattern of patterns) {
    const match = pattern.regex.exec(pattern.view === 'stripped' ? views.stripped : views.codeOnly);
    if (match) found.push({ rule, text: label(pattern.name), index: match.index });
  }
  return found;
}

const PY_OPEN = /(?<![\w.])(?:io\s*\.\s*|codecs\s*\.\s*)?open\s*\(|\.\s*open\s*\(/g;
const JS_OPEN = /\b(?:fs\w*|promises)\s*\.\s*open(?:Sync)?\s*\(|(?<![\w$.])openSync\s*\(/g;
const MODE_LITERAL = /^[rwaxbtsU+]{1,4}$/;
const WRITING_MODE = /[wax+]/;

/** Whether one open(…) call writes: a writing mode anywhere in its arguments, or a computed one. */
function callOpensForWriting(views: CodeViews, open: number, builtin: boolean): boolean {
  const args = callArguments(views.codeOnly, open);
  for (const [i, arg] of args.entries()) {
    const named = /^\s*(?:mode|flags)\s*=/.exec(arg.text);
    const literal = literalAt(views, arg.index + (named ? named[0].length : 0));
    if (literal && MODE_LITERAL.test(literal.value) && WRITING_MODE.test(literal.value))
      return true;
    if (!literal && (named || (builtin && i === 1))) return true;
  }
  return false;
}

/** open(path, 'w') and friends: a mode that writes, or one computed at run time. */
function openWrites(views: CodeViews): CodeFinding[] {
  const python = views.language === 'python';
  for (const m of views.codeOnly.matchAll(python ? PY_OPEN : JS_OPEN)) {
    const builtin = !m[0].startsWith('.');
    if (callOpensForWriting(views, (m.index ?? 0) + m[0].length - 1, builtin)) {
      return [
        {
          rule: 'write_operation',
          text: 'Write operation not allowed at the readonly level: file opened for writing',
          index: m.index ?? 0,
        },
      ];
    }
  }
  return [];
}

function sqlWrites(views: CodeViews): CodeFinding[] {
  for (const literal of views.literals.values()) {
    const write = findSqlWrite(literal.value, false);
    if (write)
      return [
        {
          rule: 'write_operation',
          text: `Write operation not allowed at the readonly level: ${write.what ?? `SQL ${write.keyword}`}`,
          index: literal.start,
        },
      ];
  }
  return [];
}

function blockedUses(uses: ImportRef[], lists: EffectiveLists): CodeFinding[] {
  return uses.flatMap((use) => {
    const entry = coveringEntry(use.module, lists.blocked, '.');
    return entry
      ? [{ rule: 'blocked_import' as const, text: `Blocked import: '${entry}'`, index: use.index }]
      : [];
  });
}

/** `strict` and `readonly`: the code read by a real parser and judged against allowlists. */
function parsedFindings(
  code: string,
  language: CodeLanguage,
  lists: EffectiveLists,
  level: CodeSafetyLevel,
): CodeFinding[] {
  const parsed =
    language === 'python'
      ? checkParsedPython(code)
      : { ...checkParsedJavaScript(code), attributeUses: [] };
  return [
    ...parsed.findings,
    ...parsed.imports.flatMap((ref) => importFindings(ref, language, lists, level)),
    ...blockedUses(parsed.attributeUses, lists),
  ];
}

/** The findings for one code string, its names first read as the language reads them (codeNormalize.ts). */
export function checkCodeIn(
  written: string,
  language: CodeLanguage,
  lists: EffectiveLists,
  level: CodeSafetyLevel,
): CodeFinding[] {
  const { code, findings: unread } = normalizeCode(written, language);
  const views = lex(code, language);
  const imports = language === 'python' ? pythonImports(views) : javascriptImports(views);
  const found = [
    ...unread,
    ...imports.flatMap((ref) => importFindings(ref, language, lists, level)),
  ];
  if (language === 'python')
    found.push(...attributeFindings(views, lists), ...pythonDynamicAccess(views, lists.blocked));
  if (level === 'strict' || level === 'readonly') {
    const tooDeep =
      language === 'python' ? bracketsTooDeepAt(views.codeOnly, PYTHON_MAX_BRACKETS) : undefined;
    if (tooDeep === undefined) found.push(...parsedFindings(code, language, lists, level));
    else
      found.push({
        rule: 'unparsable',
        text: `More than ${PYTHON_MAX_BRACKETS} brackets open at once, which Python refuses`,
        index: tooDeep,
      });
  }
  found.push(
    ...patternFindings(
      views,
      lists.patterns,
      'blocked_pattern',
      (name) => `Blocked pattern: '${name}'`,
    ),
  );
  if (level === 'readonly') {
    const label = (name: string) => `Write operation not allowed at the readonly level: ${name}`;
    found.push(
      ...patternFindings(views, WRITE_OPERATIONS[language], 'write_operation', label),
      ...openWrites(views),
      ...sqlWrites(views),
    );
  }
  return found;
}
