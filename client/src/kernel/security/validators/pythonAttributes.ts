/**
 * Attribute reads and imports in Python at the strict levels (MGP §7.2), judged by their static
 * names: dunders other than a few, private names, frames and code objects, `str.format` on anything
 * but a literal without attribute fields, and modules reached through other modules (`typing.sys`).
 */
import type { CodeFinding } from './codeFinding';
import {
  isDunder,
  PY_ALLOWED_DUNDERS,
  PY_DENIED_ATTRIBUTES,
  PY_FORMAT_METHODS,
  PY_MEMBERS_NAMED_LIKE_MODULES,
  PY_MODULE_ALIASES,
  PY_STDLIB_MODULES,
} from './codeStrictNames';

export type Problem = { rule: CodeFinding['rule']; text: string };

/** `{0.attr}` or `{0[key]}` in a format string: a field that reads more than the argument itself. */
const FORMAT_FIELD_READS = /\{[^{}!:]*[.[]/;

/**
 * `receiver.name`, where `receiverName` is the receiver when it is a plain name and
 * `receiverLiteral` the receiver's text when it is a string literal.
 */
export function attributeProblem(
  name: string,
  receiverName: string | undefined,
  receiverLiteral: string | undefined,
): Problem | undefined {
  if (isDunder(name) ? !PY_ALLOWED_DUNDERS.has(name) : PY_DENIED_ATTRIBUTES.has(name))
    return { rule: 'blocked_attribute', text: `Attribute not allowed: '${name}'` };
  if (name.startsWith('_') && !isDunder(name) && receiverName !== 'self' && receiverName !== 'cls')
    return { rule: 'blocked_attribute', text: `Private attribute not allowed: '${name}'` };
  if (
    PY_FORMAT_METHODS.has(name) &&
    (receiverLiteral === undefined || FORMAT_FIELD_READS.test(receiverLiteral))
  )
    return {
      rule: 'computed_access',
      text: `Computed attribute access: '.${name}' on ${receiverLiteral === undefined ? 'a value that is not a string literal' : 'a format string whose fields read attributes'}`,
    };
  return undefined;
}

/** A member of module `module` named `name` must not be one of the modules it imported itself. */
export function moduleMemberProblem(module: string, name: string): Problem | undefined {
  const top = module.split('.')[0];
  const last = module.split('.').pop();
  const likeModule = PY_STDLIB_MODULES.has(name) || PY_MODULE_ALIASES.has(name);
  const exempt = name === last || PY_MEMBERS_NAMED_LIKE_MODULES[top]?.has(name);
  return likeModule && !exempt
    ? {
        rule: 'blocked_attribute',
        text: `Module reached through another module: '${module}.${name}'`,
      }
    : undefined;
}

/** The parts of an import after `import`: `a.b as c, d` or `(x as y, z)` → [{a.b, c}, {d}]. */
export function importedNames(
  parts: readonly { name: string; text: string }[],
): { name: string; alias?: string }[] {
  const out: { name: string; alias?: string }[] = [];
  let current: { name: string; alias?: string } | undefined;
  let aliasNext = false;
  for (const part of parts) {
    if (part.name === ',' || part.name === '(' || part.name === ')') {
      if (current) out.push(current);
      current = undefined;
    } else if (part.name === 'as') aliasNext = true;
    else if (part.name === '*') out.push({ name: '*' });
    else if (part.name === 'VariableName') {
      const word = part.text;
      if (aliasNext && current) current.alias = word;
      else if (current && current.name.endsWith('.')) current.name += word;
      else current = { name: word };
      aliasNext = false;
    } else if (part.name === '.' && current) current.name += '.';
  }
  if (current) out.push(current);
  return out;
}
