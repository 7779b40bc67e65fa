/**
 * code_safety at `strict` and `readonly`: an allowlist over a real parse (acorn, Lezer's Python). The
 * bypasses of the security review (each refused here, each passed before), generated variants of each
 * attack class, and ordinary code that must still pass.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { runValidators } from '../../../client/src/kernel/security/validators';
import type { CodeSafetySpec, ToolSecurity } from '../../../client/src/kernel/domain/security';

function security(code_safety: CodeSafetySpec): ToolSecurity {
  return {
    risk_level: 'dangerous',
    permissions_required: ['code_execution'],
    side_effects: [],
    validator: 'code_safety',
    code_safety,
  };
}

async function violations(code: string, spec: CodeSafetySpec): Promise<string[]> {
  const outcome = await runValidators(['code_safety'], {
    toolName: 'run_code',
    args: { code },
    security: security(spec),
  });
  return outcome.codeRejection?.violations ?? [];
}

const LEVELS = ['strict', 'readonly'] as const;
/** `os` allowed on purpose: the attacks must fail on the names, not on the import. */
const py = (level: 'strict' | 'readonly' | 'standard'): CodeSafetySpec => ({
  level,
  language: 'python',
  allowed_imports: ['os', 'json', 'math', 'typing', 'operator', 'enum', 'string'],
});
const js = (level: 'strict' | 'readonly' | 'standard'): CodeSafetySpec => ({
  level,
  language: 'javascript',
});

describe('code_safety strict/readonly: the review bypasses are refused', () => {
  const JS: [string, RegExp][] = [
    ["process.getBuiltinModule('child_process').execSync('id')", /Name not allowed: 'process'/],
    ["module.constructor._load('child_process').execSync('id')", /Name not allowed: 'module'/],
    [
      "JSON['constructor']['constructor']('return process')()",
      /Property not allowed: 'constructor'/,
    ],
  ];
  for (const level of LEVELS)
    for (const [code, expected] of JS)
      it(`${level}: ${code}`, async () => {
        const found = await violations(code, js(level));
        assert.ok(
          found.some((v) => expected.test(v)),
          found.join('\n'),
        );
      });

  const PY: [string, RegExp][] = [
    ['from os import *\nsystem("id")', /Star import not allowed|Name not allowed: 'system'/],
    ['import os\ngetattr(os, "sys" + "tem")("id")', /Name not allowed: 'getattr'/],
    ['import os\nos.__dict__["system"]("id")', /Attribute not allowed: '__dict__'/],
    ['import os\nvars(os)["system"]("id")', /Name not allowed: 'vars'/],
    [
      'getattr(getattr(getattr((), "__cla" + "ss__"), "__ba" + "se__"), "__subcl" + "asses__")()',
      /Name not allowed: 'getattr'/,
    ],
    ['import typing\ntyping.sys.modules["os"].system("id")', /typing\.sys/],
    ['from typing import sys', /typing\.sys/],
    ['import enum\nenum.bltns.eval("1")', /enum\.bltns/],
    ['import operator\noperator.attrgetter("system")(os)', /attrgetter/],
    ['"{0.__class__.__init__.__globals__}".format(0)', /format string whose fields read/],
    ["def f(x: \"__import__('os').system('id')\"): pass", /String in an annotation/],
    ['if 0:\n    getattr = None\ngetattr(0, "real")', /Name not allowed: 'getattr'/],
    ['__builtins__.eval("1")', /Name not allowed: '__builtins__'/],
    ['ｇetattr(0, "real")', /Name not allowed: 'getattr'/],
    ['[x for x in getattr(0, "real")]', /Name not allowed: 'getattr'/],
    ['# -*- coding: utf-7 -*-\nx = 1', /Source encoding other than UTF-8/],
  ];
  for (const level of LEVELS)
    for (const [code, expected] of PY)
      it(`${level}: ${JSON.stringify(code)}`, async () => {
        const found = await violations(code, py(level));
        assert.ok(
          found.some((v) => expected.test(v)),
          found.join('\n'),
        );
      });

  it('refuses code that does not parse, at strict and readonly only', async () => {
    for (const level of LEVELS) {
      assert.match((await violations('x = = 1', py(level))).join(), /does not parse as Python/);
      assert.match(
        (await violations('let = = 1', js(level))).join(),
        /does not parse as JavaScript/,
      );
    }
    assert.deepEqual(await violations('x = = 1', py('standard')), []);
  });

  it('refuses a long run of Python syntax errors where the first one is', async () => {
    const code = 'x = 1\n' + 'echo "a b" '.repeat(5000);
    for (const level of LEVELS)
      assert.deepEqual(await violations(code, py(level)), ['Code that does not parse as Python']);
  });

  it('refuses code nested too deep to judge, and judges code nested as deep as people write', async () => {
    const brackets = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const parens = (n: number) => `${'('.repeat(n)}0${')'.repeat(n)}`;
    const nots = (n: number) => `${'not '.repeat(n)}0`;
    for (const level of LEVELS) {
      for (const code of [brackets(5000), parens(5000)])
        assert.match((await violations(code, py(level))).join(), /brackets open at once/);
      // Deeper than the judge takes, shallower than the parser gives up at:
      assert.match((await violations(nots(2000), py(level))).join(), /nested more than/);
      assert.notDeepEqual(await violations(nots(5000), py(level)), []);
      for (const code of [brackets(5000), parens(5000), '!'.repeat(5000) + '0'])
        assert.notDeepEqual(await violations(`const x = ${code}`, js(level)), []);
      for (const code of [brackets(100), parens(100), nots(100)]) {
        assert.deepEqual(await violations(`x = ${code}`, py(level)), []);
        assert.deepEqual(
          await violations(`const x = ${code.replace(/not /g, '!')}`, js(level)),
          [],
        );
      }
    }
  });
});

describe('code_safety standard: the review bypasses are refused by the blocklist too', () => {
  const cases: [string, CodeSafetySpec, RegExp][] = [
    [
      "process.getBuiltinModule('child_process')",
      js('standard'),
      /Blocked import: 'child_process'/,
    ],
    ['process.getBuiltinModule(name)', js('standard'), /Dynamic import/],
    ["module.constructor._load('child_process')", js('standard'), /module\.constructor/],
    ['from os import *\nsystem("id")', py('standard'), /Blocked import: 'os\.system'/],
    ['import os\ngetattr(os, "sys" + "tem")("id")', py('standard'), /Computed attribute access/],
    ['import os\ngetattr(os, "system")("id")', py('standard'), /Blocked import: 'os\.system'/],
    ['import os\nos.__dict__["system"]("id")', py('standard'), /__dict__/],
    ['import os\nvars(os)["system"]("id")', py('standard'), /vars\(/],
  ];
  for (const [code, spec, expected] of cases)
    it(JSON.stringify(code), async () => {
      const found = await violations(code, spec);
      assert.ok(
        found.some((v) => expected.test(v)),
        found.join('\n'),
      );
    });

  it('still passes a literal getattr of a harmless attribute at standard', async () => {
    assert.deepEqual(await violations('import os\nprint(getattr(os, "sep"))', py('standard')), []);
  });
});

describe('code_safety strict/readonly: generated variants of each attack are all refused', () => {
  const quote = fc.constantFrom("'", '"');
  const space = fc.constantFrom('', ' ', '  ', '\t');
  /** A string split into a concatenation of 1–3 literals with random quotes. */
  const split = (word: string) =>
    fc
      .tuple(fc.integer({ min: 0, max: word.length }), quote, quote, space)
      .map(([cut, q1, q2, s]) =>
        cut === 0 || cut === word.length
          ? `${q1}${word}${q1}`
          : `${q1}${word.slice(0, cut)}${q1}${s}+${s}${q2}${word.slice(cut)}${q2}`,
      );
  /** `process` spelled with a unicode escape at a random letter, or not. */
  const jsEscaped = (word: string) =>
    fc
      .integer({ min: -1, max: word.length - 1 })
      .map((at) =>
        at < 0
          ? word
          : `${word.slice(0, at)}\\u${word.charCodeAt(at).toString(16).padStart(4, '0')}${word.slice(at + 1)}`,
      );
  /** Python reads identifiers NFKC-normalised: a fullwidth letter is the ASCII one. */
  const pyLookalike = (word: string) =>
    fc
      .integer({ min: -1, max: word.length - 1 })
      .map((at) =>
        at < 0
          ? word
          : `${word.slice(0, at)}${String.fromCharCode(word.charCodeAt(at) + 0xfee0)}${word.slice(at + 1)}`,
      );
  const alias = fc.constantFrom('p', 'x', '_p', 'helper');

  const jsAttack = fc.oneof(
    fc
      .tuple(jsEscaped('process'), space, split('child_process'))
      .map(([p, s, m]) => `${p}${s}.${s}getBuiltinModule(${m})`),
    fc
      .tuple(jsEscaped('process'), split('getBuiltinModule'), space)
      .map(([p, k, s]) => `${p}[${s}${k}${s}]('child_process')`),
    fc
      .tuple(alias, jsEscaped('process'), space)
      .map(([a, p, s]) => `const ${a}${s}=${s}${p};${s}${a}.getBuiltinModule('child_process')`),
    fc
      .tuple(jsEscaped('module'), jsEscaped('constructor'), space)
      .map(([m, c, s]) => `${m}${s}.${s}${c}._load('child_process')`),
    fc
      .tuple(split('constructor'), fc.constantFrom('JSON', 'Math', '[]', '""', '(() => 0)'))
      .map(([k, o]) => `${o}[${k}][${k}]('return process')()`),
    fc
      .tuple(alias, jsEscaped('constructor'), fc.constantFrom('JSON', 'Math', 'Object'))
      .map(([a, c, o]) => `const { ${c}: ${a} } = ${o}; ${a}('return 1')`),
    fc
      .tuple(alias, split('constructor'))
      .map(([a, k]) => `let ${a} = ${k}; Math[${a}][${a}]('return process')()`),
    fc
      .tuple(
        jsEscaped('globalThis'),
        jsEscaped('global'),
        fc.constantFrom('process', 'eval', 'Function'),
      )
      .map(([g1, g2, n]) => `${g1}.${n}; ${g2}.${n}`),
    fc
      .tuple(jsEscaped('require'), alias)
      .map(([r, a]) => `const ${a} = ${r}; ${a}('child_process')`),
    fc.constantFrom(
      'function f() { return this.process } f()',
      "import('child' + '_process')",
      'Reflect.get(globalThis, "process")',
      "setTimeout('process.exit()')",
      "Object.getOwnPropertyDescriptor(Object.getPrototypeOf(() => 0), 'constructor').value('return 1')",
      'with (Math) { max }',
    ),
  );

  const pyAttack = fc.oneof(
    fc
      .tuple(space, fc.constantFrom('*', '(*)'))
      .map(([s, star]) => `from${' '}os${s} import ${star}\nsystem("id")`),
    fc
      .tuple(pyLookalike('getattr'), split('system'), space)
      .map(([g, name, s]) => `import os\n${g}(os,${s}${name})("id")`),
    fc
      .tuple(alias, pyLookalike('getattr'), split('system'))
      .map(([a, g, name]) => `import os\n${a} = ${g}\n${a}(os, ${name})("id")`),
    fc
      .tuple(pyLookalike('vars'), split('system'), space)
      .map(([v, name, s]) => `import os\n${v}(os)[${s}${name}${s}]("id")`),
    fc
      .tuple(pyLookalike('__dict__'), split('system'))
      .map(([d, name]) => `import os\nos.${d}[${name}]("id")`),
    fc
      .tuple(pyLookalike('__class__'), pyLookalike('__subclasses__'))
      .map(([c, sub]) => `().${c}.__base__.${sub}()`),
    fc.tuple(pyLookalike('sys'), alias).map(([s, a]) => `import typing as ${a}\n${a}.${s}.modules`),
    fc
      .tuple(split('system'), quote)
      .map(([name, q]) => `import operator\noperator.methodcaller(${name}, ${q}id${q})`),
    fc.tuple(split('{0.__class__}'), space).map(([fmt, s]) => `(${fmt})${s}.format(0)`),
    fc
      .tuple(pyLookalike('globals'), pyLookalike('eval'), pyLookalike('exec'))
      .map(([g, e, x]) => `${g}()\n${e}("1")\n${x}("1")`),
    fc
      .tuple(pyLookalike('getattr'), alias)
      .map(
        ([g, a]) => `def f(${g}):\n    return ${g}\nif 0:\n    ${g} = f\n${g}(0, "real")\n${a} = 1`,
      ),
    fc.constantFrom(
      '[c for c in ().__class__.__mro__]',
      'def f(): yield\nf().gi_frame.f_globals',
      'from operator import attrgetter',
      'from types import CodeType',
      'import typing\ntyping.get_type_hints(f)',
      '__import__("os").system("id")',
      'breakpoint()',
      '(lambda: 0).__globals__',
      'match 0:\n    case object(__class__=c): pass',
    ),
  );

  for (const level of LEVELS) {
    it(`JavaScript at ${level}`, async () => {
      await fc.assert(
        fc.asyncProperty(jsAttack, async (code) => {
          assert.notDeepEqual(await violations(code, js(level)), [], code);
        }),
        { numRuns: 300 },
      );
    });
    it(`Python at ${level}`, async () => {
      await fc.assert(
        fc.asyncProperty(pyAttack, async (code) => {
          assert.notDeepEqual(await violations(code, py(level)), [], code);
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe('code_safety strict/readonly: ordinary code still passes', () => {
  const PY = [
    'import json\nimport math\n\nvalues = [math.sqrt(i) for i in range(10)]\nprint(json.dumps(values))',
    'words = "the quick brown fox".split()\ncounts = {}\nfor w in words:\n    counts[w] = counts.get(w, 0) + 1\nprint(sorted(counts.items(), key=lambda kv: -kv[1]))',
    'from collections import Counter, defaultdict\nfrom dataclasses import dataclass\n\n@dataclass\nclass Point:\n    x: float\n    y: float\n\n    def norm(self) -> float:\n        return (self.x ** 2 + self.y ** 2) ** 0.5\n\nprint(Point(3, 4).norm(), Counter("abca").most_common(1), defaultdict(list))',
    'import re\nfrom datetime import datetime, timedelta\n\ndef parse(text):\n    m = re.match(r"(\\d+)-(\\d+)", text)\n    return int(m.group(1)) + int(m.group(2)) if m else None\n\nprint(parse("3-4"), datetime(2024, 1, 1) + timedelta(days=1))',
    'class Stack:\n    def __init__(self):\n        self._items = []\n\n    def push(self, item):\n        self._items.append(item)\n\n    def __len__(self):\n        return len(self._items)\n\ns = Stack()\ns.push(1)\nprint(len(s), "{}-{}".format(1, 2), f"{len(s):>4}")',
    'def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\ntry:\n    print({n: fib(n) for n in range(10)})\nexcept ValueError as e:\n    print(e)\nwith open("data.csv") as fh:\n    rows = [line.strip().split(",") for line in fh]',
    'import statistics\nimport itertools\ndata = [3, 1, 4, 1, 5]\nprint(statistics.mean(data), list(itertools.accumulate(data)), max(data, default=0))\nif __name__ == "__main__":\n    print(sum(x * x for x in data if x % 2))',
  ];
  const JS = [
    "import path from 'node:path';\nconst parts = ['a', 'b', 'c'].map((p) => p.toUpperCase());\nconsole.log(path.join(...parts));",
    'const data = JSON.parse(\'{"a": [1, 2, 3]}\');\nconst total = data.a.reduce((sum, n) => sum + n, 0);\nconsole.log(`total: ${total}`, Math.max(...data.a));',
    'const counts = new Map();\nfor (const word of "the quick the".split(" ")) counts.set(word, (counts.get(word) ?? 0) + 1);\nconsole.log([...counts.entries()].sort((a, b) => b[1] - a[1]));',
    'const xs = [5, 3, 8];\nfor (let i = 0; i < xs.length; i++) console.log(xs[i], xs[xs.length - 1 - i]);\nconst { a, b: [first] } = { a: 1, b: [2] };\nconsole.log(a, first, xs.at(-1), Object.keys({ k: 1 }));',
    'class Counter {\n  #n = 0;\n  inc() { this.#n++; return this; }\n  get value() { return this.#n; }\n  *[Symbol.iterator]() { yield this.#n; }\n}\nconst c = new Counter().inc().inc();\nconsole.log(c.value, [...c]);',
    "async function main() {\n  const wait = (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms));\n  console.log(await wait(1), new Date(0).toISOString(), 'abc'.padStart(5, '-'));\n}\nmain();",
    'const headers = { "content-type": "text/plain" };\nconsole.log(headers["content-type"], encodeURIComponent("a b"), parseInt("42", 10));',
  ];
  for (const level of LEVELS) {
    PY.forEach((code, i) =>
      it(`Python example ${i + 1} at ${level}`, async () => {
        const spec: CodeSafetySpec = {
          level,
          language: 'python',
          allowed_imports: [
            'json',
            'math',
            'collections',
            'dataclasses',
            're',
            'datetime',
            'statistics',
            'itertools',
          ],
        };
        assert.deepEqual(await violations(code, spec), []);
      }),
    );
    JS.forEach((code, i) =>
      it(`JavaScript example ${i + 1} at ${level}`, async () => {
        assert.deepEqual(await violations(code, js(level)), []);
      }),
    );
  }
});
