/**
 * Property tests of code_safety at `standard` reading names as the language does: a blocked module or
 * a dangerous name spelled with NFKC-equivalent characters (Python), identifier escapes
 * (JavaScript), or as a computed key folded from constant pieces must be refused; ordinary code
 * written the same ways must pass.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { runValidators } from '../../../../client/src/kernel/security/validators';
import type { ToolSecurity } from '../../../../client/src/kernel/domain/security';
import { RUNS } from './arbitraries';

async function rules(code: string, language: 'python' | 'javascript'): Promise<string[]> {
  const security: ToolSecurity = {
    risk_level: 'dangerous',
    permissions_required: [],
    side_effects: [],
    code_safety: { level: 'standard', language },
  };
  const outcome = await runValidators(['code_safety'], {
    toolName: 'run_code',
    args: { code },
    security,
  });
  return outcome.violations.map((v) => v.rule);
}

/** Characters NFKC maps to each ASCII letter: fullwidth, mathematical alphabets, and the letter. */
function nfkcVariants(c: string): string[] {
  const lower = c >= 'a' && c <= 'z';
  const offset = c.charCodeAt(0) - (lower ? 97 : 65);
  const fullwidth = String.fromCodePoint((lower ? 0xff41 : 0xff21) + offset);
  const bold = String.fromCodePoint((lower ? 0x1d41a : 0x1d400) + offset);
  const monospace = String.fromCodePoint((lower ? 0x1d68a : 0x1d670) + offset);
  const variants = /[a-zA-Z]/.test(c) ? [c, fullwidth, bold, monospace] : [c];
  return variants.filter((v) => v.normalize('NFKC') === c);
}

/** `name` with some of its letters replaced by characters Python's NFKC reads as them. */
function nfkcSpelled(name: string): fc.Arbitrary<string> {
  return fc
    .tuple(...[...name].map((c) => fc.constantFrom(...nfkcVariants(c))))
    .map((chars) => chars.join(''))
    .filter((spelled) => spelled !== name);
}

/** `name` with some characters as JavaScript identifier escapes (`\u0072`, `\u{72}`). */
function escapedIdentifier(name: string): fc.Arbitrary<string> {
  return fc
    .array(fc.constantFrom('plain', 'four', 'braced', 'BRACED'), {
      minLength: name.length,
      maxLength: name.length,
    })
    .filter((how) => how.some((h) => h !== 'plain'))
    .map((how) =>
      [...name]
        .map((c, i) => {
          const hex = c.charCodeAt(0).toString(16);
          if (how[i] === 'four') return `\\u${hex.padStart(4, '0')}`;
          if (how[i] === 'braced') return `\\u{${hex}}`;
          if (how[i] === 'BRACED') return `\\u{00${hex.toUpperCase()}}`;
          return c;
        })
        .join(''),
    );
}

/** A constant expression a JavaScript engine folds to `name`: concatenations and templates. */
function constantKey(name: string): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.integer({ min: 1, max: name.length - 1 }),
      fc.constantFrom("'", '"', '`'),
      fc.constantFrom('plus', 'template', 'parens', 'escape'),
    )
    .map(([cut, quote, how]) => {
      const [a, b] = [name.slice(0, cut), name.slice(cut)];
      if (how === 'template') return `\`${a}\${'${b}'}\``;
      if (how === 'parens') return `(${quote}${a}${quote}) + (${quote}${b}${quote})`;
      if (how === 'escape')
        return `${quote}\\x${a.charCodeAt(0).toString(16)}${a.slice(1)}${quote} + ${quote}${b}${quote}`;
      return `${quote}${a}${quote} + ${quote}${b}${quote}`;
    });
}

describe('code_safety at standard: names as the language reads them (properties)', function () {
  this.timeout(300_000);

  it('refuses Python imports and calls spelled with NFKC-equivalent characters', async () => {
    const code = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('subprocess', 'shutil', 'ctypes', 'socket', 'pty', 'posix'),
          fc.nat(2),
        )
        .chain(([module, form]) =>
          nfkcSpelled(module).map((m) =>
            form === 0
              ? `import ${m}`
              : form === 1
                ? `from ${m} import x`
                : `import json, ${m} as y`,
          ),
        ),
      fc
        .constantFrom('eval', 'exec', '__import__')
        .chain((name) => nfkcSpelled(name).map((n) => `${n}("1")`)),
    );
    await fc.assert(
      fc.asyncProperty(code, async (c) =>
        assert.notDeepEqual(await rules(c, 'python'), [], JSON.stringify(c)),
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses JavaScript identifiers spelled with escapes', async () => {
    const code = fc.oneof(
      escapedIdentifier('require').map((r) => `${r}('child_process').execSync('id')`),
      escapedIdentifier('eval').map((e) => `${e}('1 + 1')`),
      escapedIdentifier('process').map((p) => `${p}.mainModule.require('fs')`),
    );
    await fc.assert(
      fc.asyncProperty(code, async (c) =>
        assert.notDeepEqual(await rules(c, 'javascript'), [], JSON.stringify(c)),
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses computed member access whose constant key folds to a dangerous name', async () => {
    const code = fc
      .tuple(
        fc.constantFrom('(()=>{})', 'Object', 'process', '[].map', 'x'),
        constantKey('constructor'),
      )
      .map(([target, key]) => `${target}[${key}]('return process')()`);
    await fc.assert(
      fc.asyncProperty(code, async (c) =>
        assert.notDeepEqual(await rules(c, 'javascript'), [], JSON.stringify(c)),
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses a key spelled at run time from pieces of a dangerous name', async () => {
    const code = fc
      .tuple(
        fc.constantFrom('constructor', 'mainModule', '__proto__', 'require'),
        fc.constantFrom('k', 'name()', 'a[0]'),
      )
      .chain(([name, unknown]) =>
        fc
          .integer({ min: 1, max: name.length - 1 })
          .map((cut) => `const k = 1; x['${name.slice(0, cut)}' + ${unknown}]`),
      );
    await fc.assert(
      fc.asyncProperty(code, async (c) =>
        assert.ok((await rules(c, 'javascript')).includes('computed_access'), JSON.stringify(c)),
      ),
      { numRuns: 100 },
    );
    assert.ok(
      (await rules('x[String.fromCharCode(99, 111)]', 'javascript')).includes('computed_access'),
    );
  });

  it('lets ordinary code pass, written with the same features', async () => {
    const python = fc.constantFrom(
      'import json\nprint(json.dumps({"a": 1}))',
      'ｐｒｉｎｔ("ｈｅｌｌｏ")',
      'naïve = 1\nprint(naïve)',
      'x = "ｓｕｂｐｒｏｃｅｓｓ is only text"',
    );
    const javascript = fc.constantFrom(
      'const a = [1, 2]; console.log(a[0], a["len" + "gth"], a[a.length - 1])',
      'const row = { total: 1 }; console.log(row[`to${"tal"}`], row["total"])',
      'const \\u0061bc = 1; console.log(abc)',
      'const m = new Map(); const key = "k"; console.log(m.get(key), ({ k: 1 })[key])',
    );
    await fc.assert(
      fc.asyncProperty(python, async (c) => assert.deepEqual(await rules(c, 'python'), [], c)),
      { numRuns: 20 },
    );
    await fc.assert(
      fc.asyncProperty(javascript, async (c) =>
        assert.deepEqual(await rules(c, 'javascript'), [], c),
      ),
      { numRuns: 20 },
    );
  });
});
