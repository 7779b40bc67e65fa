/**
 * The `code_safety` validator (MGP §7): checks code arguments against the tool's `code_safety`
 * declaration and, when it rejects, builds the §7.4 structured result.
 *
 * | level          | checks                                                                 |
 * |----------------|------------------------------------------------------------------------|
 * | `unrestricted` | none                                                                   |
 * | `standard`     | import blocklist, pattern blocklist, dynamic imports, declared size    |
 * | `strict`       | the above + a real parse: names, attributes and imports on allowlists  |
 * |                | (codeParsedJs.ts, codeParsedPython.ts) + size limit (default 64 KiB)   |
 * | `readonly`     | strict + no file writes, network sends, subprocesses or SQL writes     |
 * A missing declaration means `standard`; an unknown level is treated as `strict`. The blocklist applies
 * at every level, also to modules an allowlist names (blocking wins). At `standard` a declared
 * allowlist is not enforced (§7.2 gives standard a blocklist only) but is passed back as a hint.
 * A declaration from the config replaces the kernel's default lists; one from the server
 * (`extends_defaults`) only adds to them: blocklists and patterns joined, the allowlist intersected,
 * the smaller size limit, and a language the kernel cannot read is ignored rather than trusted.
 *
 * Which arguments are code: strings under a key named `code`, `source`, `source_code`, `script`,
 * `program`, `snippet`, `python`, `javascript`, `js`, `py`, `typescript`, `ts`, `expression`, `function`,
 * `cell` (but not `code_path`, `script_name`, `language`…), or under a top-level property whose schema
 * description says it is code. When no argument qualifies, every string argument is checked, since the
 * tool asked for code safety.
 *
 * The language: the declaration's `language`, else the tool's name (`run_python`), else the code itself;
 * when the code could be either, it is checked as both. Code in another declared language gets the
 * size limit and the declared patterns; at `strict` and `readonly` it is rejected, because its imports
 * cannot be checked against an allowlist. At `standard` matching is over a tokenizer; at `strict` and
 * `readonly` code that does not parse is refused, and code of unknown language is judged in each
 * language it parses in. Either way the check is static: it is not a sandbox.
 */
import type { CodeSafetyLevel, CodeSafetySpec } from '../../domain/security';
import { checkCodeIn, type CodeFinding, type EffectiveLists } from './codeChecks';
import {
  DEFAULT_ALLOWED_IMPORTS,
  DEFAULT_BLOCKED_IMPORTS,
  DEFAULT_BLOCKED_PATTERNS,
  DEFAULT_MAX_CODE_SIZE_BYTES,
  type CodePattern,
} from './codeDefaults';
import type { CodeLanguage } from './codeLexer';
import type { ValidationContext } from './context';
import { propertyDescription } from './context';
import { languageFromName } from './fallback';
import type { CodeRejection, Violation } from './types';
import { compileDeclaredPattern } from './declaredPatterns';
import { excerpt, nameWords, place } from './text';
import type { Leaf } from './walk';

const LEVELS: readonly CodeSafetyLevel[] = ['unrestricted', 'standard', 'strict', 'readonly'];
const CODE_KEY_WORDS = new Set([
  'code',
  'source',
  'script',
  'program',
  'snippet',
  'python',
  'javascript',
  'js',
  'py',
  'typescript',
  'ts',
  'expression',
  'function',
  'cell',
]);
const NOT_CODE_WORDS = new Set([
  'path',
  'file',
  'filename',
  'name',
  'url',
  'uri',
  'language',
  'lang',
  'type',
  'id',
  'size',
  'version',
  'format',
  'encoding',
  'mode',
  'kind',
]);
const CODE_DESCRIPTION =
  /\b(?:source code|code to (?:run|execute|evaluate)|(?:python|javascript|typescript|js|node(?:\.js)?)\s+(?:code|script|snippet|program|source)|script to (?:run|execute))\b/i;
const PYTHON_LANGS = new Set(['python', 'py', 'python3', 'ipython']);
const JS_LANGS = new Set([
  'javascript',
  'js',
  'node',
  'nodejs',
  'typescript',
  'ts',
  'tsx',
  'jsx',
  'mjs',
  'cjs',
  'deno',
  'bun',
  'ecmascript',
]);
const LOOKS_PYTHON =
  /^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import\b|import[ \t]+[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*$|def[ \t]+\w+[ \t]*\(|class[ \t]+\w+[ \t]*[:(]|print[ \t]*\(|if[ \t]+__name__[ \t]*==)/m;
const LOOKS_JAVASCRIPT =
  /\b(?:const|let|var|function)\s+[\w${[]|=>|\brequire\s*\(|^[ \t]*import[ \t]+[^\n]*\bfrom[ \t]*['"]|\bconsole\s*\.\s*log\b|;[ \t]*$/m;

type Languages = CodeLanguage[] | { other: string };

export interface CodeOutcome {
  violations: Violation[];
  rejection?: CodeRejection;
}

function isCodeField(context: ValidationContext, leaf: Leaf): boolean {
  const words = nameWords(leaf.key);
  if (words.some((w) => CODE_KEY_WORDS.has(w)) && !words.some((w) => NOT_CODE_WORDS.has(w)))
    return true;
  return CODE_DESCRIPTION.test(propertyDescription(context.input.inputSchema, leaf.top) ?? '');
}

function codeArguments(context: ValidationContext): (Leaf & { value: string })[] {
  const strings = context.walked.leaves.filter(
    (l): l is Leaf & { value: string } => typeof l.value === 'string',
  );
  const code = strings.filter((leaf) => isCodeField(context, leaf));
  return code.length > 0 ? code : strings;
}

function languagesFor(spec: CodeSafetySpec, toolName: string, code: string): Languages {
  const declared = spec.language?.trim().toLowerCase();
  if (declared && PYTHON_LANGS.has(declared)) return ['python'];
  if (declared && JS_LANGS.has(declared)) return ['javascript'];
  if (declared && !spec.extends_defaults) return { other: declared };
  const named = languageFromName(toolName);
  if (named) return [named];
  const python = LOOKS_PYTHON.test(code);
  const javascript = LOOKS_JAVASCRIPT.test(code);
  return python === javascript ? ['python', 'javascript'] : [python ? 'python' : 'javascript'];
}

function given(list: string[] | undefined): string[] | undefined {
  const usable = Array.isArray(list)
    ? list.filter((x) => typeof x === 'string' && x.trim() !== '')
    : [];
  return usable.length > 0 ? usable : undefined;
}

function listsFor(
  spec: CodeSafetySpec,
  level: CodeSafetyLevel,
  language: CodeLanguage,
): EffectiveLists {
  const strip = (name: string) => name.replace(/^node:/, '');
  const declaredPatterns = given(spec.blocked_patterns)?.map(compileDeclaredPattern);
  const declaredBlocked = given(spec.blocked_imports);
  const declaredAllowed = given(spec.allowed_imports);
  const defaultPatterns = DEFAULT_BLOCKED_PATTERNS[language] as CodePattern[];
  const strictish = level === 'strict' || level === 'readonly';
  if (!spec.extends_defaults) {
    const allowed = strictish ? (declaredAllowed ?? DEFAULT_ALLOWED_IMPORTS[language]) : undefined;
    return {
      blocked: new Set((declaredBlocked ?? DEFAULT_BLOCKED_IMPORTS[language]).map(strip)),
      allowed: allowed && new Set(allowed.map(strip)),
      patterns: declaredPatterns ?? defaultPatterns,
    };
  }
  const narrowed = declaredAllowed && new Set(declaredAllowed.map(strip));
  const allowed = strictish
    ? DEFAULT_ALLOWED_IMPORTS[language].map(strip).filter((m) => !narrowed || narrowed.has(m))
    : undefined;
  return {
    blocked: new Set([...DEFAULT_BLOCKED_IMPORTS[language], ...(declaredBlocked ?? [])].map(strip)),
    allowed: allowed && new Set(allowed),
    patterns: [...defaultPatterns, ...(declaredPatterns ?? [])],
  };
}

function maxSize(spec: CodeSafetySpec, level: CodeSafetyLevel): number | undefined {
  const declared =
    typeof spec.max_code_size_bytes === 'number' && spec.max_code_size_bytes > 0
      ? spec.max_code_size_bytes
      : undefined;
  const fallback =
    level === 'strict' || level === 'readonly' ? DEFAULT_MAX_CODE_SIZE_BYTES : undefined;
  if (spec.extends_defaults && declared !== undefined && fallback !== undefined)
    return Math.min(declared, fallback);
  return declared ?? fallback;
}

function findingsFor(
  code: string,
  languages: Languages,
  spec: CodeSafetySpec,
  level: CodeSafetyLevel,
): CodeFinding[] {
  if (Array.isArray(languages)) {
    const each = languages.map((language) =>
      checkCodeIn(code, language, listsFor(spec, level, language), level),
    );
    // Code of an unknown language is judged in each language it parses in; refused if in none.
    const parses = each.map((found) => !found.some((f) => f.rule === 'unparsable'));
    return each.flatMap((found, i) => (parses[i] || !parses.includes(true) ? found : []));
  }
  const found: CodeFinding[] = [];
  for (const pattern of (given(spec.blocked_patterns) ?? []).map(compileDeclaredPattern)) {
    const match = pattern.regex.exec(code);
    if (match)
      found.push({
        rule: 'blocked_pattern',
        text: `Blocked pattern: '${pattern.name}'`,
        index: match.index,
      });
  }
  if (level !== 'standard') {
    found.push({
      rule: 'unsupported_language',
      text: `Imports of ${languages.other} code cannot be checked against an allowlist (supported: python, javascript)`,
      index: 0,
    });
  }
  return found;
}

const WHY: Record<string, string> = {
  blocked_import: 'The import blocklist forbids this module.',
  import_not_allowed: 'Only modules in allowed_imports may be imported at this level.',
  dynamic_import: 'A module name computed at run time cannot be checked against the import lists.',
  blocked_pattern: 'The code safety rules forbid this construct.',
  write_operation:
    'At the readonly level code may only read: no file writes, network sends or subprocesses.',
  size_limit: 'Send smaller code.',
  unsupported_language:
    'At the strict and readonly levels the kernel must be able to read the imports.',
  unparsable:
    'At the strict and readonly levels code is judged on its parse: send code that parses.',
  name_not_allowed:
    'At the strict and readonly levels code may use only the names it binds itself and the allowed builtins.',
  blocked_attribute:
    'This attribute leads to interpreter internals or to modules outside the allowlist.',
  computed_access:
    'An attribute named at run time cannot be checked: name it in the code (at strict, a computed key must be a number).',
};

function toViolation(
  rule: string,
  text: string,
  pointer: string,
  code: string,
  index: number,
): Violation {
  const lineStart = code.lastIndexOf('\n', index - 1) + 1;
  const lineEnd = code.indexOf('\n', index);
  const lineText = code.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  const number = code.slice(0, index).split('\n').length;
  const quote =
    lineText.length <= 80 ? excerpt(lineText) : excerpt(lineText, index - lineStart, 40);
  return {
    validator: 'code_safety',
    rule,
    message: `${text} in ${place(pointer)}, line ${number}: "${quote}". ${WHY[rule]}`,
    argument: pointer,
    excerpt: quote,
  };
}

function hints(
  spec: CodeSafetySpec,
  level: CodeSafetyLevel,
  languages: CodeLanguage[],
  size: number | undefined,
): CodeRejection['hints'] {
  const lists = languages.map((l) => listsFor(spec, level, l));
  const out: CodeRejection['hints'] = {
    blocked_imports: [...new Set(lists.flatMap((l) => [...l.blocked]))],
  };
  const allowed = lists.some((l) => l.allowed)
    ? [...new Set(lists.flatMap((l) => [...(l.allowed ?? [])]))]
    : given(spec.allowed_imports);
  if (allowed) out.allowed_imports = allowed;
  if (size !== undefined) out.max_code_size_bytes = size;
  return out;
}

function sizeFindings(code: string, size: number | undefined): CodeFinding[] {
  const bytes = Buffer.byteLength(code, 'utf8');
  return size !== undefined && bytes > size
    ? [
        {
          rule: 'size_limit',
          text: `Code size ${bytes} bytes exceeds the limit of ${size} bytes`,
          index: 0,
        },
      ]
    : [];
}

export function checkCodeSafety(context: ValidationContext): CodeOutcome {
  const spec: CodeSafetySpec = context.input.security.code_safety ?? { level: 'standard' };
  const level: CodeSafetyLevel = LEVELS.includes(spec.level) ? spec.level : 'strict';
  if (level === 'unrestricted') return { violations: [] };
  const size = maxSize(spec, level);
  const violations: Violation[] = [];
  const texts: string[] = [];
  const checked = new Set<CodeLanguage>();
  for (const leaf of codeArguments(context)) {
    const languages = languagesFor(spec, context.input.toolName, leaf.value);
    if (Array.isArray(languages)) languages.forEach((l) => checked.add(l));
    const seen = new Set<string>();
    for (const f of [
      ...sizeFindings(leaf.value, size),
      ...findingsFor(leaf.value, languages, spec, level),
    ]) {
      if (seen.has(f.text)) continue;
      seen.add(f.text);
      violations.push(toViolation(f.rule, f.text, leaf.pointer, leaf.value, f.index));
      if (!texts.includes(f.text)) texts.push(f.text);
    }
  }
  if (violations.length === 0) return { violations };
  const languages: CodeLanguage[] = checked.size ? [...checked] : ['python', 'javascript'];
  return {
    violations,
    rejection: {
      status: 'rejected',
      reason: 'Code validation failed',
      violations: texts,
      hints: hints(spec, level, languages, size),
    },
  };
}
