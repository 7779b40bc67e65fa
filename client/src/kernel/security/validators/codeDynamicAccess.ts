/**
 * Attribute reads the blocklist cannot see, found at every level from `standard` up (MGP §7.2), on the
 * tokenizer's views: at `standard` the kernel keeps a blocklist, so what it cannot name it refuses.
 * - Python `getattr`/`setattr`/`delattr`/`hasattr` with a name computed at run time
 *   (`getattr(os, "sys" + "tem")`); with a literal name the read is judged as `module.name` against the
 *   blocklist's dotted entries (`getattr(os, "system")` is `os.system`).
 * - Python `from m import *` where the blocklist names members of `m` (`os.system`): the star binds them.
 */
import type { CodeFinding } from './codeFinding';
import { callArguments, literalAt, type CodeViews } from './codeLexer';
import { coveringEntry, pythonBindings } from './codeImports';

const PY_ATTRIBUTE_CALL = /(?<![\w.])(getattr|setattr|delattr|hasattr)\s*\(/g;
/** One plain string literal and nothing else (contents are blanked in `codeOnly`; an f-string is not plain). */
const ONE_LITERAL = /^\s*[rRbBuU]{0,2}("""|'''|"|')[^'"]*\1\s*$/;
const PY_STAR_IMPORT = /(^|[;:])[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]*\(?[ \t]*\*/gm;

export function pythonDynamicAccess(views: CodeViews, blocked: ReadonlySet<string>): CodeFinding[] {
  const found: CodeFinding[] = [];
  const bound = pythonBindings(views);
  for (const m of views.codeOnly.matchAll(PY_ATTRIBUTE_CALL)) {
    const index = m.index ?? 0;
    const [target, name] = callArguments(views.codeOnly, index + m[0].length - 1);
    const literal = name && ONE_LITERAL.test(name.text) ? literalAt(views, name.index) : undefined;
    if (!literal) {
      found.push({
        rule: 'computed_access',
        text: `Computed attribute access: '${m[1]}' with a name computed at run time`,
        index,
      });
      continue;
    }
    const module = target && bound.get(target.text.trim());
    const entry = module && coveringEntry(`${module}.${literal.value}`, blocked, '.');
    if (entry) found.push({ rule: 'blocked_import', text: `Blocked import: '${entry}'`, index });
  }
  for (const m of views.stripped.matchAll(PY_STAR_IMPORT)) {
    const index = (m.index ?? 0) + m[1].length;
    if (!views.codeOnly.startsWith('from', views.codeOnly.indexOf('from', index))) continue;
    const member = [...blocked].find((entry) => entry.startsWith(`${m[2]}.`));
    if (member)
      found.push({
        rule: 'blocked_import',
        text: `Blocked import: '${member}' (bound by 'from ${m[2]} import *')`,
        index,
      });
  }
  return found;
}
