import { strict as assert } from 'node:assert';
import {
  runValidators,
  type ValidationOutcome,
} from '../../../client/src/kernel/security/validators';
import {
  DEFAULT_ALLOWED_IMPORTS,
  DEFAULT_BLOCKED_IMPORTS,
  DEFAULT_MAX_CODE_SIZE_BYTES,
} from '../../../client/src/kernel/security/validators/codeDefaults';
import type { CodeSafetySpec, ToolSecurity } from '../../../client/src/kernel/domain/security';

function security(code_safety?: CodeSafetySpec): ToolSecurity {
  return {
    risk_level: 'dangerous',
    permissions_required: ['code_execution'],
    side_effects: [],
    validator: 'code_safety',
    code_safety,
  };
}

function check(
  args: Record<string, unknown>,
  spec?: CodeSafetySpec,
  toolName = 'run_code',
  inputSchema?: Record<string, unknown>,
): Promise<ValidationOutcome> {
  return runValidators(['code_safety'], { toolName, args, security: security(spec), inputSchema });
}

async function texts(code: string, spec: CodeSafetySpec, toolName = 'run_code'): Promise<string[]> {
  return (await check({ code }, spec, toolName)).codeRejection?.violations ?? [];
}

/** The declaration of MGP §7.3, word for word. */
const SECTION_7_3: CodeSafetySpec = {
  level: 'standard',
  language: 'python',
  max_code_size_bytes: 10000,
  blocked_imports: ['subprocess', 'shutil', 'socket', 'ctypes'],
  blocked_patterns: ['eval(', 'exec(', '__import__(', 'os.system'],
  allowed_imports: ['asyncio', 'json', 'httpx', 'os', 'datetime', 'typing'],
};

describe('code_safety: the §7.4 rejection', () => {
  it('has the exact §7.4 shape, with the violations in order and the declared lists as hints', async () => {
    const outcome = await check({ code: 'import subprocess\nx = eval("1 + 1")\n' }, SECTION_7_3);
    assert.equal(outcome.ok, false);
    assert.deepEqual(outcome.codeRejection, {
      status: 'rejected',
      reason: 'Code validation failed',
      violations: ["Blocked import: 'subprocess'", "Blocked pattern: 'eval('"],
      hints: {
        blocked_imports: SECTION_7_3.blocked_imports,
        allowed_imports: SECTION_7_3.allowed_imports,
        max_code_size_bytes: 10000,
      },
    });
    assert.deepEqual(
      outcome.violations.map((v) => [v.validator, v.rule, v.argument]),
      [
        ['code_safety', 'blocked_import', '/code'],
        ['code_safety', 'blocked_pattern', '/code'],
      ],
    );
    assert.match(
      outcome.violations[1].message,
      /^Blocked pattern: 'eval\(' in \/code, line 2: "x = eval\("1 \+ 1"\)"/,
    );
  });

  it('has no rejection when the code passes', async () => {
    const outcome = await check({ code: 'import json\nprint(json.dumps([1]))' }, SECTION_7_3);
    assert.deepEqual(outcome, {
      ok: true,
      violations: [],
      applied: ['code_safety'],
      codeRejection: undefined,
    });
  });

  it('gives the default lists as hints when nothing is declared (strict: the default allowlist and size)', async () => {
    const rejection = (
      await check({ code: 'import requests' }, { level: 'strict', language: 'python' })
    ).codeRejection;
    assert.deepEqual(rejection?.hints, {
      blocked_imports: DEFAULT_BLOCKED_IMPORTS.python,
      allowed_imports: DEFAULT_ALLOWED_IMPORTS.python,
      max_code_size_bytes: DEFAULT_MAX_CODE_SIZE_BYTES,
    });
  });

  it('gives no allowlist hint at standard unless one was declared', async () => {
    const hints = (
      await check({ code: 'import subprocess' }, { level: 'standard', language: 'python' })
    ).codeRejection?.hints;
    assert.deepEqual(Object.keys(hints ?? {}), ['blocked_imports']);
  });
});

describe('code_safety: size limit', () => {
  const spec: CodeSafetySpec = { level: 'standard', language: 'python', max_code_size_bytes: 100 };

  it('counts UTF-8 bytes and rejects one byte over the limit, not at it', async () => {
    assert.deepEqual(await texts('#'.repeat(100), spec), []);
    assert.deepEqual(await texts('#'.repeat(101), spec), [
      'Code size 101 bytes exceeds the limit of 100 bytes',
    ]);
    assert.deepEqual(await texts(`#${'é'.repeat(50)}`, spec), [
      'Code size 101 bytes exceeds the limit of 100 bytes',
    ]);
  });

  it('applies the default limit at strict and readonly, none at standard when none is declared', async () => {
    const big = `x = 1\n${'#'.repeat(DEFAULT_MAX_CODE_SIZE_BYTES)}`;
    assert.deepEqual(await texts(big, { level: 'standard', language: 'python' }), []);
    for (const level of ['strict', 'readonly'] as const) {
      assert.deepEqual(await texts(big, { level, language: 'python' }), [
        `Code size ${DEFAULT_MAX_CODE_SIZE_BYTES + 6} bytes exceeds the limit of ${DEFAULT_MAX_CODE_SIZE_BYTES} bytes`,
      ]);
    }
  });
});

describe('code_safety: levels, allowlist and blocklist', () => {
  it('unrestricted checks nothing, standard the blocklist, strict and readonly the allowlist too', async () => {
    const code = 'import requests\nimport subprocess';
    assert.deepEqual(await texts(code, { level: 'unrestricted', language: 'python' }), []);
    assert.deepEqual(await texts(code, { level: 'standard', language: 'python' }), [
      "Blocked import: 'subprocess'",
    ]);
    const strict = ["Import not in allowlist: 'requests'", "Blocked import: 'subprocess'"];
    assert.deepEqual(await texts(code, { level: 'strict', language: 'python' }), strict);
    assert.deepEqual(await texts(code, { level: 'readonly', language: 'python' }), strict);
  });

  it('enforces a declared allowlist at strict, and the blocklist still wins over it', async () => {
    const spec: CodeSafetySpec = {
      level: 'strict',
      language: 'python',
      allowed_imports: ['requests', 'subprocess'],
    };
    assert.deepEqual(await texts('import requests', spec), []);
    assert.deepEqual(await texts('import subprocess', spec), ["Blocked import: 'subprocess'"]);
    assert.deepEqual(await texts('import json', spec), ["Import not in allowlist: 'json'"]);
  });

  it('does not enforce a declared allowlist at standard (§7.2 gives standard a blocklist only)', async () => {
    assert.deepEqual(
      await texts('import requests', {
        level: 'standard',
        language: 'python',
        allowed_imports: ['json'],
      }),
      [],
    );
  });

  it('lets a declared blocklist replace the default one; an empty list counts as not given', async () => {
    assert.deepEqual(
      await texts('import subprocess\nimport json', {
        level: 'standard',
        language: 'python',
        blocked_imports: ['json'],
      }),
      ["Blocked import: 'json'"],
    );
    assert.deepEqual(
      await texts('import subprocess', {
        level: 'standard',
        language: 'python',
        blocked_imports: [],
      }),
      ["Blocked import: 'subprocess'"],
    );
  });

  it('allows a package to cover its submodules, and a blocked parent to block its children', async () => {
    assert.deepEqual(
      await texts('import os.path', {
        level: 'strict',
        language: 'python',
        allowed_imports: ['os'],
      }),
      [],
    );
    assert.deepEqual(
      await texts('import xml.etree.ElementTree', {
        level: 'strict',
        language: 'python',
        allowed_imports: ['xml.etree'],
      }),
      [],
    );
    assert.deepEqual(await texts('import http.server', { level: 'standard', language: 'python' }), [
      "Blocked import: 'http.server'",
    ]);
    assert.deepEqual(
      await texts("import x from 'fs/promises'", {
        level: 'standard',
        language: 'javascript',
        blocked_imports: ['fs'],
      }),
      ["Blocked import: 'fs/promises'"],
    );
  });

  it('at readonly refuses writing modules even when allowlisted, and writes of every kind', async () => {
    const spec: CodeSafetySpec = {
      level: 'readonly',
      language: 'python',
      allowed_imports: ['subprocess', 'pathlib', 'sqlite3'],
      blocked_imports: ['ctypes'],
    };
    assert.deepEqual(await texts('import subprocess', spec), [
      "Blocked import at the readonly level: 'subprocess'",
    ]);
    assert.deepEqual(await texts('from pathlib import Path\nPath("a").write_text("x")', spec), [
      'Write operation not allowed at the readonly level: file write (pathlib)',
    ]);
    assert.deepEqual(await texts('def save(path, mode):\n    return open(path, mode)', spec), [
      'Write operation not allowed at the readonly level: file opened for writing',
    ]);
    assert.deepEqual(await texts('f = open("data.csv", "rb")', spec), []);
    const db = 'import sqlite3\ndb = sqlite3.connect("a.db")\n';
    assert.deepEqual(await texts(`${db}db.execute("SELECT 1")`, spec), []);
    assert.deepEqual(await texts(`${db}db.execute("UPDATE t SET a = 1")`, spec), [
      'Write operation not allowed at the readonly level: SQL UPDATE',
    ]);
  });

  it('treats an unknown level as strict', async () => {
    const spec = { level: 'paranoid', language: 'python' } as unknown as CodeSafetySpec;
    assert.deepEqual(await texts('import requests', spec), ["Import not in allowlist: 'requests'"]);
  });
});

describe('code_safety: Python import forms', () => {
  const strict: CodeSafetySpec = { level: 'strict', language: 'python', allowed_imports: ['json'] };
  const cases: [string, string[]][] = [
    ['import a.b as c', ["Import not in allowlist: 'a.b'"]],
    ['import json, yaml as y', ["Import not in allowlist: 'yaml'"]],
    ['from a import b', ["Import not in allowlist: 'a'"]],
    ['from json import (\n    dumps,\n    loads,\n)', []],
    ['if True: import toml', ["Import not in allowlist: 'toml'"]],
    ['x = 1; import toml', ["Import not in allowlist: 'toml'"]],
    ['    import toml  # indented', ["Import not in allowlist: 'toml'"]],
    [
      "m = __import__('yaml')",
      [
        "Import not in allowlist: 'yaml'",
        "Name not allowed: '__import__'",
        "Blocked pattern: '__import__('",
      ],
    ],
    [
      'import importlib\nimportlib.import_module("yaml")',
      ["Blocked import: 'importlib'", "Import not in allowlist: 'yaml'"],
    ],
    [
      'from importlib import import_module\nimport_module(name)',
      [
        "Blocked import: 'importlib'",
        'Dynamic import with a computed module name',
        "Name not allowed: 'name'",
      ],
    ],
    ['from .sibling import thing', []],
    ['s = "import yaml"', []],
    ['# import yaml', []],
  ];
  for (const [code, expected] of cases) {
    it(`${JSON.stringify(code)} → ${expected.length ? expected.join(' + ') : 'passes'}`, async () => {
      assert.deepEqual(await texts(code, strict), expected);
    });
  }
});

describe('code_safety: JavaScript import forms', () => {
  const strict: CodeSafetySpec = {
    level: 'strict',
    language: 'javascript',
    allowed_imports: ['path'],
  };
  const cases: [string, string[]][] = [
    ["import x from 'left-pad'", ["Import not in allowlist: 'left-pad'"]],
    ['import { a, b } from "lodash"', ["Import not in allowlist: 'lodash'"]],
    ["import * as ns from 'node:os'", ["Import not in allowlist: 'os'"]],
    ["import 'polyfill'", ["Import not in allowlist: 'polyfill'"]],
    ["export * from 'other'", ["Import not in allowlist: 'other'"]],
    [
      "import type { T } from 'types-only'",
      [
        "Import not in allowlist: 'types-only'",
        'Code that does not parse as JavaScript (Unexpected token)',
      ],
    ],
    ["const m = await import('chalk')", ["Import not in allowlist: 'chalk'"]],
    ["const m = require('chalk')", ["Import not in allowlist: 'chalk'"]],
    ['const m = require(`chalk`)', ["Import not in allowlist: 'chalk'"]],
    ["module.require('net')", ["Blocked import: 'net'", "Name not allowed: 'module'"]],
    [
      "process.mainModule.require('child_process')",
      [
        "Blocked import: 'child_process'",
        "Property not allowed: 'mainModule'",
        "Name not allowed: 'process'",
        "Blocked pattern: 'process.mainModule'",
      ],
    ],
    [
      "process._linkedBinding('fs')",
      [
        "Blocked import: 'process.binding'",
        "Property not allowed: '_linkedBinding'",
        "Name not allowed: 'process'",
        "Blocked pattern: 'process.binding'",
      ],
    ],
    [
      'const m = require(name)',
      ['Dynamic import with a computed module name', "Name not allowed: 'name'"],
    ],
    [
      'const m = import(`./${name}.js`)',
      ['Dynamic import with a computed module name', "Name not allowed: 'name'"],
    ],
    ["import path from 'node:path'", []],
    ['const s = "require(\'chalk\')"', []],
    ["/* import x from 'chalk' */", []],
  ];
  for (const [code, expected] of cases) {
    it(`${JSON.stringify(code)} → ${expected.length ? expected.join(' + ') : 'passes'}`, async () => {
      assert.deepEqual(await texts(code, strict), expected);
    });
  }
});

describe('code_safety: patterns, languages and code arguments', () => {
  it('matches declared patterns across spacing, with word boundaries', async () => {
    const spec: CodeSafetySpec = {
      level: 'standard',
      language: 'python',
      blocked_patterns: ['os.system', 'eval('],
    };
    assert.deepEqual(await texts("os . system('ls')", spec), ["Blocked pattern: 'os.system'"]);
    assert.deepEqual(await texts('window.eval (x)', spec), ["Blocked pattern: 'eval('"]);
    assert.deepEqual(await texts('retrieval(x); os.systems = 1', spec), []);
  });

  it('takes the language from the tool name when the declaration has none', async () => {
    assert.deepEqual(await texts('import subprocess', { level: 'standard' }, 'run_python'), [
      "Blocked import: 'subprocess'",
    ]);
    const js = await check(
      { code: "const cp = require('child_process')" },
      { level: 'standard' },
      'eval_js',
    );
    assert.deepEqual(js.codeRejection?.violations, ["Blocked import: 'child_process'"]);
    assert.deepEqual(js.codeRejection?.hints.blocked_imports, DEFAULT_BLOCKED_IMPORTS.javascript);
  });

  it('checks code of unknown language as both Python and JavaScript', async () => {
    const outcome = await check({ code: '1 + 2' }, { level: 'strict' }, 'run_code');
    assert.equal(outcome.ok, true);
    // At strict every reading that parses must pass: `x = 1` is an implicit global in JavaScript.
    assert.deepEqual(await texts('x = 1', { level: 'strict' }), ["Name not allowed: 'x'"]);
    assert.deepEqual(await texts('def f(x):\n    return x', { level: 'strict' }), []);
    const both = await check(
      { code: 'import json\nrequire("vm")' },
      { level: 'standard' },
      'run_code',
    );
    assert.deepEqual(both.codeRejection?.violations, ["Blocked import: 'vm'"]);
    assert.deepEqual(both.codeRejection?.hints.blocked_imports, [
      ...new Set([...DEFAULT_BLOCKED_IMPORTS.python, ...DEFAULT_BLOCKED_IMPORTS.javascript]),
    ]);
  });

  it('rejects another declared language at strict (imports unreadable) but applies declared patterns at standard', async () => {
    assert.deepEqual(await texts('puts 1', { level: 'strict', language: 'ruby' }), [
      'Imports of ruby code cannot be checked against an allowlist (supported: python, javascript)',
    ]);
    assert.deepEqual(await texts('puts 1', { level: 'standard', language: 'ruby' }), []);
    assert.deepEqual(
      await texts('system("ls")', {
        level: 'standard',
        language: 'ruby',
        blocked_patterns: ['system('],
      }),
      ["Blocked pattern: 'system('"],
    );
  });

  it('checks the code argument and leaves the other arguments alone', async () => {
    const spec: CodeSafetySpec = { level: 'standard', language: 'python' };
    assert.equal(
      (await check({ code: 'print(1)', note: 'eval(x)', filename: 'subprocess.py' }, spec)).ok,
      true,
    );
    const nested = await check({ files: [{ name: 'a.py', source: 'import socket' }] }, spec);
    assert.deepEqual(
      nested.violations.map((v) => v.argument),
      ['/files/0/source'],
    );
  });

  it('finds code by the schema description, or checks every string when no argument is named as code', async () => {
    const spec: CodeSafetySpec = { level: 'standard', language: 'python' };
    const schema = {
      properties: {
        body: { type: 'string', description: 'Python code to execute' },
        title: { type: 'string' },
      },
    };
    const bySchema = await check({ body: 'eval(x)', title: 'eval(y)' }, spec, 'submit', schema);
    assert.deepEqual(
      bySchema.violations.map((v) => v.argument),
      ['/body'],
    );
    const fallback = await check({ text: 'eval(x)', other: 'print(1)' }, spec, 'submit');
    assert.deepEqual(
      fallback.violations.map((v) => v.argument),
      ['/text'],
    );
  });

  it('runs code_safety with standard defaults when the tool declares no code_safety object', async () => {
    const outcome = await runValidators(['code_safety'], {
      toolName: 'run_python',
      args: { code: 'import ctypes' },
      security: security(undefined),
    });
    assert.deepEqual(outcome.codeRejection?.violations, ["Blocked import: 'ctypes'"]);
  });
});

describe('code_safety: lists declared by a server extend the defaults', () => {
  const security = (code_safety: CodeSafetySpec): ToolSecurity => ({
    risk_level: 'dangerous',
    permissions_required: [],
    side_effects: [],
    code_safety,
  });
  const check = (code: string, code_safety: CodeSafetySpec) =>
    runValidators(['code_safety'], {
      toolName: 'run',
      args: { code },
      security: security(code_safety),
    });

  it('a declared blocklist is added to the default one (server) or replaces it (config)', async () => {
    const spec: CodeSafetySpec = {
      level: 'standard',
      language: 'python',
      blocked_imports: ['json'],
    };
    assert.equal((await check('import subprocess', { ...spec, extends_defaults: true })).ok, false);
    assert.equal((await check('import json', { ...spec, extends_defaults: true })).ok, false);
    assert.equal((await check('import subprocess', spec)).ok, true);
  });

  it('declared patterns are added to the default ones', async () => {
    const spec: CodeSafetySpec = {
      level: 'standard',
      language: 'javascript',
      blocked_patterns: ['fetch('],
      extends_defaults: true,
    };
    assert.equal((await check('eval("1")', spec)).ok, false);
    assert.equal((await check('fetch("x")', spec)).ok, false);
    assert.equal((await check('const a = 1 + 2;', spec)).ok, true);
  });

  it('a declared allowlist narrows the default one and a larger size limit does not raise it', async () => {
    const spec: CodeSafetySpec = {
      level: 'strict',
      language: 'python',
      allowed_imports: ['subprocess', 'math', 'json'],
      max_code_size_bytes: 10_000_000,
      extends_defaults: true,
    };
    assert.equal((await check('import subprocess', spec)).ok, false);
    assert.equal((await check('import random', spec)).ok, false);
    assert.equal((await check('import math\nx = math.pi', spec)).ok, true);
    const big = (await check(`x = 1\n${'# padding\n'.repeat(8000)}`, spec)).violations;
    assert.ok(
      big.some((v) => v.rule === 'size_limit'),
      JSON.stringify(big.map((v) => v.rule)),
    );
  });
});
