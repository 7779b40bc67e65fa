import { Range } from '../diagnostic';
import { isTable, RuleContext } from './context';

interface StringValue {
  path: (string | number)[];
  value: string;
}

function collectStrings(
  value: unknown,
  path: (string | number)[],
  into: StringValue[],
): StringValue[] {
  if (typeof value === 'string') into.push({ path, value });
  else if (Array.isArray(value))
    value.forEach((item, index) => collectStrings(item, [...path, index], into));
  else if (isTable(value))
    for (const [key, item] of Object.entries(value)) collectStrings(item, [...path, key], into);
  return into;
}

/** The range of `needle` inside a single-line value's text, or the whole value. */
function rangeWithin(ctx: RuleContext, valueRange: Range, needle: string): Range {
  if (valueRange.start.line !== valueRange.end.line) return valueRange;
  const line = ctx.text.split('\n')[valueRange.start.line] ?? '';
  const at = line.indexOf(needle, valueRange.start.character);
  if (at < 0 || at + needle.length > valueRange.end.character) return valueRange;
  return {
    start: { line: valueRange.start.line, character: at },
    end: { line: valueRange.start.line, character: at + needle.length },
  };
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `${VAR}` is read from the environment when the server starts: warn when it is not set now. */
export function checkUnsetVariables(ctx: RuleContext): void {
  for (const { path, value } of collectStrings(ctx.value, [], [])) {
    for (const match of value.matchAll(VARIABLE)) {
      const name = match[1];
      if (ctx.environment.env[name] !== undefined) continue;
      ctx.reportAt(
        rangeWithin(ctx, ctx.range(path), match[0]),
        path,
        'warning',
        'unset-variable',
        `environment variable ${name} is not set: \${${name}} will be empty`,
        { variable: name },
      );
    }
  }
}

const TOKEN_SHAPES: RegExp[] = [
  /^sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}$/,
  /^gh[pousr]_[A-Za-z0-9]{20,}$/,
  /^github_pat_[A-Za-z0-9_]{20,}$/,
  /^xox[abprs]-[A-Za-z0-9-]{10,}$/,
  /^AKIA[0-9A-Z]{16}$/,
  /^AIza[0-9A-Za-z_-]{30,}$/,
  /^glpat-[A-Za-z0-9_-]{20,}$/,
  /^hf_[A-Za-z0-9]{20,}$/,
  /^eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}$/,
];
const SECRET_KEY_NAME = /(api[_-]?key|token|secret|passw(or)?d|credential|auth)/i;

function looksLikeSecret(keyName: string, value: string): string | undefined {
  if (value.includes('${')) return undefined;
  const bearer = /^(Bearer|Basic|Token)\s+(\S{16,})$/i.exec(value);
  const candidate = bearer ? bearer[2] : value;
  if (TOKEN_SHAPES.some((shape) => shape.test(candidate))) return candidate;
  const mixed = /[A-Za-z]/.test(candidate) && /[0-9]/.test(candidate) && !/\s/.test(candidate);
  if ((bearer || SECRET_KEY_NAME.test(keyName)) && candidate.length >= 20 && mixed)
    return candidate;
  return undefined;
}

function secretName(path: (string | number)[], serverId: string | undefined): string {
  const key = String(path[path.length - 1])
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
  const inEnv = path.includes('env');
  return inEnv || !serverId
    ? key
    : `${serverId.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}_${key}`;
}

/** A literal that looks like an API key is a warning, with what the quick fix needs to move it. */
export function checkLiteralSecrets(ctx: RuleContext): void {
  for (const { path, value } of collectStrings(ctx.value, [], [])) {
    const keyName = String(path[path.length - 1]);
    const secret = looksLikeSecret(keyName, value);
    if (!secret) continue;
    const server = ctx.value[String(path[0])];
    const serverTable =
      Array.isArray(server) && typeof path[1] === 'number' && isTable(server[path[1]])
        ? (server[path[1]] as Record<string, unknown>)
        : undefined;
    const serverId =
      typeof serverTable?.id === 'string'
        ? serverTable.id
        : typeof serverTable?.name === 'string'
          ? serverTable.name
          : undefined;
    const name = secretName(path, serverId);
    ctx.reportAt(
      rangeWithin(ctx, ctx.range(path), secret),
      path,
      'warning',
      'literal-secret',
      `${keyName} looks like an API key written into the file: keep it in secret storage and refer to it as \${secret:${name}}`,
      { secretName: name },
    );
  }
}
