/**
 * JavaScript at the code safety `strict` and `readonly` levels (MGP §7.2): the code is parsed with
 * acorn, as a module and as a script (every reading that parses must pass; none parsing is a refusal),
 * and judged on its syntax tree, not its text:
 * - every name the code does not bind itself (eslint-scope's unresolved references) must be on the
 *   allowlist (codeStrictNames.ts): `process`, `module`, `globalThis`, `Function`, `Reflect`… are not;
 * - `require` only as a call with one literal module name, checked against the import lists like
 *   `import … from 'm'` and `import('m')`;
 * - no computed property read unless its key is provably a number (`a[i]` with a numeric counter,
 *   `a[n - 1]`), a string literal or a well-known symbol; no property on the denied list
 *   (`constructor`, `__proto__`, `getBuiltinModule`…), however it is spelled — `\u0063onstructor` is
 *   `constructor` to the parser;
 * - no `this` outside a class body (a sloppy function's `this` is the global object), no `with`, no
 *   `import.meta`; timers take a function written in place, never a string.
 */
import type { Node, Program } from 'acorn';
import type { CodeFinding } from './codeFinding';
import type { ImportRef } from './codeImports';
import {
  codeGrammar,
  type JsScope,
  type JsScopeReference,
  type JsScopeVariable,
} from './codeParse';
import {
  JS_ALLOWED_GLOBALS,
  JS_DENIED_PROPERTIES,
  JS_RUNTIME_GLOBALS,
  JS_TIMERS,
} from './codeStrictNames';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESTree nodes are read by their `type` */
type AnyNode = Node & Record<string, any>;

export interface ParsedJsResult {
  findings: CodeFinding[];
  imports: ImportRef[];
}

const NUMERIC_OPERATORS = new Set(['-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>', '>>>']);

class Judge {
  readonly findings: CodeFinding[] = [];
  readonly imports: ImportRef[] = [];
  /** Free `require` identifiers that are the callee of a call with one literal argument. */
  private readonly literalRequires = new Set<AnyNode>();
  private readonly variableOf = new Map<AnyNode, JsScopeVariable | null>();
  /** Identifiers that are the operand of `++` or `--` (always numeric after). */
  readonly updated = new Set<AnyNode>();
  /** The declarations in `for (… in …)` and `for (… of …)` heads: their names take any value. */
  readonly iterationDeclarations = new Set<AnyNode>();

  constructor(references: JsScopeReference[]) {
    for (const ref of references) this.variableOf.set(ref.identifier as AnyNode, ref.resolved);
  }

  add(rule: CodeFinding['rule'], text: string, index: number): void {
    this.findings.push({ rule, text, index });
  }

  /** A key that cannot be a string naming a property: a number, or arithmetic that yields one. */
  numeric(node: AnyNode, seen = new Set<JsScopeVariable>()): boolean {
    switch (node.type) {
      case 'Literal':
        return typeof node.value === 'number' || typeof node.value === 'bigint';
      case 'UnaryExpression':
        return node.operator === '-' || node.operator === '+' || node.operator === '~';
      case 'UpdateExpression':
        return true;
      case 'BinaryExpression':
        return (
          NUMERIC_OPERATORS.has(node.operator) ||
          (node.operator === '+' && this.numeric(node.left, seen) && this.numeric(node.right, seen))
        );
      case 'Identifier': {
        const variable = this.variableOf.get(node);
        return variable ? this.numericVariable(variable, seen) : false;
      }
      default:
        return false;
    }
  }

  /** A `let`/`var`/`const` whose every assignment is numeric (`for (let i = 0; …; i++)`). */
  private numericVariable(variable: JsScopeVariable, seen: Set<JsScopeVariable>): boolean {
    if (seen.has(variable)) return true; // i = i + 1: numeric if its other assignments are
    seen.add(variable);
    const declared = variable.defs.every(
      (def) =>
        def.type === 'Variable' &&
        (def.node.id as AnyNode)?.type === 'Identifier' &&
        !this.iterationDeclarations.has(def.parent as AnyNode),
    );
    return (
      declared &&
      variable.defs.length > 0 &&
      variable.references.every((ref) => {
        if (!ref.isWrite()) return true;
        if (this.updated.has(ref.identifier as AnyNode)) return true;
        const write = ref.writeExpr as AnyNode | undefined | null;
        return write ? this.numeric(write, seen) : false;
      })
    );
  }

  /** `Symbol.iterator`: a well-known symbol as a key. */
  private wellKnownSymbol(node: AnyNode): boolean {
    return (
      node.type === 'MemberExpression' &&
      !node.computed &&
      node.object.type === 'Identifier' &&
      node.object.name === 'Symbol' &&
      this.variableOf.get(node.object) === null
    );
  }

  /** A computed key read: `obj[key]`, `const {[key]: v} = obj`. */
  computedKey(key: AnyNode): void {
    if (key.type === 'Literal' && typeof key.value === 'string')
      return this.property(key.value, key.start);
    if (this.numeric(key) || this.wellKnownSymbol(key)) return;
    this.add(
      'computed_access',
      'Computed property access (a key that is not a number, a string literal or a symbol)',
      key.start,
    );
  }

  property(name: string, index: number): void {
    if (JS_DENIED_PROPERTIES.has(name))
      this.add('blocked_attribute', `Property not allowed: '${name}'`, index);
  }

  noteRequire(call: AnyNode): void {
    const [arg, ...rest] = call.arguments as AnyNode[];
    const callee = call.callee as AnyNode;
    if (
      callee.type !== 'Identifier' ||
      callee.name !== 'require' ||
      this.variableOf.get(callee) !== null
    )
      return;
    const module = arg && rest.length === 0 ? literalString(arg) : undefined;
    if (module === undefined) return; // the free reference is refused as a name below
    this.literalRequires.add(callee);
    this.importOf(module, call.start);
  }

  importOf(source: string, index: number): void {
    const module = source.replace(/^node:/, '');
    this.imports.push({ module, names: [module], index });
  }

  freeName(ref: JsScopeReference, declaredAtTop: boolean): void {
    const id = ref.identifier as AnyNode;
    const name = id.name as string;
    if (name === 'require') {
      if (this.literalRequires.has(id)) return;
      this.add('dynamic_import', 'Dynamic import with a computed module name', id.start);
      return;
    }
    if (JS_ALLOWED_GLOBALS.has(name)) return;
    if (declaredAtTop && !JS_RUNTIME_GLOBALS.has(name)) return;
    this.add('name_not_allowed', `Name not allowed: '${name}'`, id.start);
  }
}

function literalString(node: AnyNode): string | undefined {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0)
    return node.quasis[0]?.value?.cooked ?? undefined;
  return undefined;
}

function children(node: AnyNode): AnyNode[] {
  const out: AnyNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item.type === 'string') out.push(item);
    } else if (value && typeof value === 'object' && typeof value.type === 'string')
      out.push(value);
  }
  return out;
}

/** What the numeric-key judgement needs to know before the judging walk: `i++` and `for … of` heads. */
function prepare(judge: Judge, node: AnyNode): void {
  if (node.type === 'UpdateExpression' && node.argument.type === 'Identifier')
    judge.updated.add(node.argument);
  if (
    (node.type === 'ForInStatement' || node.type === 'ForOfStatement') &&
    node.left.type === 'VariableDeclaration'
  )
    judge.iterationDeclarations.add(node.left);
  for (const child of children(node)) prepare(judge, child);
}

function visit(judge: Judge, node: AnyNode, inClass: boolean): void {
  switch (node.type) {
    case 'MemberExpression':
      if (node.computed) judge.computedKey(node.property);
      else if (node.property.type === 'Identifier')
        judge.property(node.property.name, node.property.start);
      break;
    case 'ObjectPattern':
      for (const prop of node.properties as AnyNode[]) {
        if (prop.type !== 'Property') continue;
        if (prop.computed) judge.computedKey(prop.key);
        else
          judge.property(
            prop.key.type === 'Identifier' ? prop.key.name : String(prop.key.value),
            prop.key.start,
          );
      }
      break;
    case 'ThisExpression':
      if (!inClass)
        judge.add('name_not_allowed', "Name not allowed: 'this' outside a class", node.start);
      break;
    case 'WithStatement':
      judge.add('blocked_pattern', "Blocked pattern: 'with'", node.start);
      break;
    case 'MetaProperty':
      if (node.meta.name === 'import')
        judge.add('name_not_allowed', "Name not allowed: 'import.meta'", node.start);
      break;
    case 'ImportDeclaration':
    case 'ExportAllDeclaration':
    case 'ExportNamedDeclaration':
      if (node.source) judge.importOf(String(node.source.value), node.start);
      break;
    case 'ImportExpression': {
      const module = literalString(node.source);
      if (module === undefined || node.options)
        judge.add('dynamic_import', 'Dynamic import with a computed module name', node.start);
      else judge.importOf(module, node.start);
      break;
    }
    case 'CallExpression': {
      judge.noteRequire(node);
      const callee = node.callee as AnyNode;
      const first = node.arguments[0] as AnyNode | undefined;
      if (
        callee.type === 'Identifier' &&
        JS_TIMERS.has(callee.name) &&
        first?.type !== 'ArrowFunctionExpression' &&
        first?.type !== 'FunctionExpression'
      )
        judge.add(
          'blocked_pattern',
          `Blocked pattern: '${callee.name}' without a function written in place`,
          node.start,
        );
      break;
    }
  }
  const nowInClass = inClass || node.type === 'ClassBody';
  for (const child of children(node)) visit(judge, child, nowInClass);
}

function judgeReading(program: Program, sourceType: 'module' | 'script'): ParsedJsResult {
  const scopes = codeGrammar().analyzeScopes(program, sourceType);
  const global = scopes.globalScope;
  const judge = new Judge(collectReferences(global));
  prepare(judge, program as AnyNode);
  visit(judge, program as AnyNode, false);
  for (const ref of global.through) {
    const declared = global.set.get(ref.identifier.name);
    judge.freeName(ref, declared !== undefined && declared.defs.length > 0);
  }
  return { findings: judge.findings, imports: judge.imports };
}

/** Every reference in the program, resolved or not. */
function collectReferences(global: JsScope): JsScopeReference[] {
  const all: JsScopeReference[] = [];
  const stack = [global];
  for (let scope = stack.pop(); scope; scope = stack.pop()) {
    all.push(...scope.references);
    stack.push(...scope.childScopes);
  }
  return all;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * The findings of `code` read as a module and as a script; `undefined` findings and an `unparsable`
 * one when neither reading parses.
 */
export function checkParsedJavaScript(code: string): ParsedJsResult {
  const grammar = codeGrammar();
  const results: ParsedJsResult[] = [];
  let firstError: { pos?: number; message: string } | undefined;
  for (const sourceType of ['module', 'script'] as const) {
    let program: Program;
    try {
      program = grammar.parseJavaScript(code, sourceType);
    } catch (error) {
      firstError ??= error as { pos?: number; message: string };
      continue;
    }
    try {
      results.push(judgeReading(program, sourceType));
    } catch {
      // The scope analysis failed on a tree acorn accepted: what cannot be judged is refused.
      results.push({
        findings: [{ rule: 'unparsable', text: 'Code the kernel could not analyse', index: 0 }],
        imports: [],
      });
    }
  }
  if (results.length === 0) {
    const why = (firstError?.message ?? 'syntax error').replace(/\s*\(\d+:\d+\)$/, '');
    return {
      findings: [
        {
          rule: 'unparsable',
          text: `Code that does not parse as JavaScript (${why})`,
          index: firstError?.pos ?? 0,
        },
      ],
      imports: [],
    };
  }
  const unique = <T extends { index: number }>(items: T[], key: (item: T) => string): T[] => [
    ...new Map(items.map((item) => [`${key(item)}@${item.index}`, item])).values(),
  ];
  return {
    findings: unique(
      results.flatMap((r) => r.findings),
      (f) => f.text,
    ),
    imports: unique(
      results.flatMap((r) => r.imports),
      (i) => i.module,
    ),
  };
}
