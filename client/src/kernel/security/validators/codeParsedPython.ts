/**
 * Python at the code safety `strict` and `readonly` levels (MGP §7.2): the code is parsed with Lezer's
 * Python grammar (code it cannot read is refused) and judged on the tree, not the text:
 * - names are resolved with Python's scopes. A name the code does not bind in a function, lambda or
 *   comprehension around it must be an allowed builtin (codeStrictNames.ts); a module- or class-level
 *   binding counts only for names Python does not provide itself, since such a binding may not have
 *   run yet (`if 0: getattr = f`). Names are NFKC-normalised first, as Python does (`ｇetattr` is
 *   `getattr`);
 * - attribute reads by a name computed at run time have no door left: `getattr`, `vars`, `globals`…
 *   are not allowed names, dunder attributes other than `__name__`, `__doc__`, `__qualname__` and
 *   `__init__` are refused (`os.__dict__`, `().__class__`), and so are frames, code objects,
 *   `operator.attrgetter`, and `str.format` on anything but a literal without attribute fields;
 * - a module's own imports are not reachable through it (`typing.sys`, `enum.bltns`), nor through a
 *   `from m import x`; a star import is refused (the names it binds cannot be judged);
 * - annotations hold no strings (`typing.get_type_hints`, used by `functools.singledispatch`,
 *   evaluates them), and `typing` generics take no string arguments.
 * Imports found in the tree are returned for the import lists; attribute uses of imported modules
 * (`os.system`) for the blocklist's dotted entries.
 */
import type { SyntaxNode, Tree } from '@lezer/common';
import type { CodeFinding } from './codeFinding';
import type { ImportRef } from './codeImports';
import { MAX_SYNTAX_DEPTH, tooDeepAt } from './codeDepth';
import { codeGrammar } from './codeParse';
import { attributeProblem, importedNames, moduleMemberProblem, Problem } from './pythonAttributes';
import { newScope, normal, resolves, Scope } from './pythonScopes';

export interface ParsedPythonResult {
  findings: CodeFinding[];
  imports: ImportRef[];
  /** `os.system` for `import os as o; o.system(…)`: judged against the blocklist's dotted entries. */
  attributeUses: ImportRef[];
}

const COMPREHENSIONS = new Set([
  'ArrayComprehensionExpression',
  'SetComprehensionExpression',
  'DictionaryComprehensionExpression',
  'ComprehensionExpression',
]);
const PUNCTUATION = new Set(['(', ')', '[', ']', '{', '}', ',', '*', '**', '.', ':', '/']);
const TYPING_MODULES = new Set(['typing', 'typing_extensions']);
const CODING_COOKIE = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/;

function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) out.push(child);
  return out;
}

class PythonJudge {
  readonly findings: CodeFinding[] = [];
  readonly imports: ImportRef[] = [];
  readonly attributeUses: ImportRef[] = [];
  private readonly references: { name: string; at: number; scope: Scope }[] = [];
  /** Names bound by imports, to what they import (`o` → `os`, `path` → `os.path`). */
  private readonly imported = new Map<string, string>();
  readonly module = newScope('module');

  constructor(private readonly code: string) {}

  private text(node: SyntaxNode): string {
    return this.code.slice(node.from, node.to);
  }

  add(rule: CodeFinding['rule'], text: string, index: number): void {
    this.findings.push({ rule, text, index });
  }

  private addProblem(problem: Problem | undefined, index: number): void {
    if (problem) this.add(problem.rule, problem.text, index);
  }

  private bind(name: string, scope: Scope): void {
    const target = scope.declaredGlobal.has(name) ? this.module : scope;
    target.bound.add(normal(name));
  }

  /** Where an assignment, `for`, `with … as`, `except … as`, `del` or walrus stores. */
  private bindTarget(node: SyntaxNode, scope: Scope): void {
    if (node.name === 'VariableName') return this.bind(this.text(node), scope);
    if (
      node.name === 'TupleExpression' ||
      node.name === 'ParenthesizedExpression' ||
      node.name === 'ArrayExpression'
    ) {
      for (const child of children(node))
        if (!PUNCTUATION.has(child.name)) this.bindTarget(child, scope);
      return;
    }
    this.visit(node, scope);
  }

  visit(node: SyntaxNode, scope: Scope): void {
    if (node.type.isError) {
      this.add('unparsable', 'Code that does not parse as Python', node.from);
      return;
    }
    switch (node.name) {
      case 'VariableName':
        this.references.push({ name: normal(this.text(node)), at: node.from, scope });
        return;
      case 'MemberExpression':
        return this.member(node, scope);
      case 'FunctionDefinition':
        return this.functionDefinition(node, scope);
      case 'LambdaExpression':
        return this.lambda(node, scope);
      case 'ClassDefinition':
        return this.classDefinition(node, scope);
      case 'AssignStatement':
        return this.assignment(node, scope);
      case 'UpdateStatement':
      case 'NamedExpression': {
        const [target, ...rest] = children(node);
        let home = scope;
        while (node.name === 'NamedExpression' && home.kind === 'comprehension' && home.parent)
          home = home.parent;
        this.bindTarget(target, home);
        return rest.forEach((child) => this.visit(child, scope));
      }
      case 'ForStatement':
        return this.sequence(node, scope, 'for', 'in');
      case 'WithStatement':
      case 'TryStatement':
      case 'AsPattern':
        return this.sequence(node, scope, 'as');
      case 'DeleteStatement':
        return children(node).forEach((child) =>
          child.name === 'del' ? undefined : this.bindTarget(child, scope),
        );
      case 'CapturePattern':
        return children(node).forEach((child) => this.bindTarget(child, scope));
      case 'KeywordPattern': {
        const [name, ...rest] = children(node);
        this.attribute(this.text(name), undefined, name.from);
        return rest.forEach((child) => this.visit(child, scope));
      }
      case 'AttributePattern':
        return this.member(node, scope);
      case 'ScopeStatement': {
        const [keyword, ...names] = children(node);
        if (this.text(keyword) === 'global')
          for (const name of names)
            if (name.name === 'VariableName') scope.declaredGlobal.add(normal(this.text(name)));
        return;
      }
      case 'ImportStatement':
        return this.importStatement(node, scope);
      case 'ArgList':
        return this.argumentList(node, scope);
      case 'TypeDef':
        this.noStrings(node, 'String in an annotation (annotations are evaluated by name lookups)');
        break;
      default:
        if (COMPREHENSIONS.has(node.name)) return this.comprehension(node, scope);
    }
    for (const child of children(node)) this.visit(child, scope);
  }

  /** Children in order; after `binder` (e.g. `as`) comes a target, up to `until` if given. */
  private sequence(node: SyntaxNode, scope: Scope, binder: string, until?: string): void {
    let binding = false;
    for (const child of children(node)) {
      if (child.name === binder) binding = true;
      else if (until ? child.name === until : binding && !PUNCTUATION.has(child.name)) {
        if (!until) this.bindTarget(child, scope);
        binding = false;
      } else if (binding && !PUNCTUATION.has(child.name)) this.bindTarget(child, scope);
      else this.visit(child, scope);
    }
  }

  private assignment(node: SyntaxNode, scope: Scope): void {
    const parts = children(node);
    // `x: int` alone has no `=`: its first part is still the target
    const lastAssign = Math.max(parts.map((p) => p.name).lastIndexOf('AssignOp'), 1);
    parts.forEach((part, i) => {
      if (part.name === 'TypeDef' || i > lastAssign) this.visit(part, scope);
      else if (part.name !== 'AssignOp' && !PUNCTUATION.has(part.name))
        this.bindTarget(part, scope);
    });
  }

  private argumentList(node: SyntaxNode, scope: Scope): void {
    // f(x for x in xs): a generator expression written as the only argument
    if (children(node).some((child) => child.name === 'for'))
      return this.comprehension(node, scope);
    for (const child of children(node)) {
      if (child.name === 'VariableName' && child.nextSibling?.name === 'AssignOp') continue;
      this.visit(child, scope);
    }
  }

  /** Parameters bind in the function's scope; defaults and annotations are evaluated outside it. */
  private parameters(list: SyntaxNode, outer: Scope, inner: Scope): void {
    let isDefault = false;
    for (const child of children(list)) {
      if (child.name === 'AssignOp') isDefault = true;
      else if (child.name === ',') isDefault = false;
      else if (child.name === 'VariableName' && !isDefault) this.bind(this.text(child), inner);
      else if (!PUNCTUATION.has(child.name)) this.visit(child, outer);
    }
  }

  private functionDefinition(node: SyntaxNode, scope: Scope): void {
    const inner = newScope('function', scope);
    for (const child of children(node)) {
      if (child.name === 'VariableName') this.bind(this.text(child), scope);
      else if (child.name === 'ParamList') this.parameters(child, scope, inner);
      else if (child.name === 'TypeParamList') this.bindTypeParameters(child, inner);
      else if (child.name === 'Body') this.visit(child, inner);
      else this.visit(child, scope);
    }
  }

  private bindTypeParameters(list: SyntaxNode, inner: Scope): void {
    for (const param of children(list))
      for (const child of children(param))
        if (child.name === 'VariableName') this.bind(this.text(child), inner);
        else this.visit(child, inner);
  }

  private lambda(node: SyntaxNode, scope: Scope): void {
    const inner = newScope('function', scope);
    for (const child of children(node)) {
      if (child.name === 'ParamList') this.parameters(child, scope, inner);
      else if (child.name !== 'lambda' && child.name !== ':') this.visit(child, inner);
    }
  }

  private classDefinition(node: SyntaxNode, scope: Scope): void {
    const inner = newScope('class', scope);
    for (const child of children(node)) {
      if (child.name === 'VariableName') this.bind(this.text(child), scope);
      else if (child.name === 'TypeParamList') this.bindTypeParameters(child, inner);
      else if (child.name === 'Body') this.visit(child, inner);
      else this.visit(child, scope);
    }
  }

  /** The first iterable is evaluated in the enclosing scope; the rest in the comprehension's own. */
  private comprehension(node: SyntaxNode, scope: Scope): void {
    const inner = newScope('comprehension', scope);
    let state: 'body' | 'target' | 'firstIterable' = 'body';
    let seenIn = false;
    for (const child of children(node)) {
      if (child.name === 'for') state = 'target';
      else if (child.name === 'in') state = seenIn ? 'body' : 'firstIterable';
      else if (child.name === 'async' || PUNCTUATION.has(child.name)) continue;
      else if (state === 'target') this.bindTarget(child, inner);
      else if (state === 'firstIterable') {
        this.visit(child, scope);
        seenIn = true;
        state = 'body';
      } else this.visit(child, inner);
    }
  }

  private importStatement(node: SyntaxNode, scope: Scope): void {
    const parts = children(node);
    const at = node.from;
    if (parts[0]?.name === 'from') {
      const importAt = parts.findIndex((p) => p.name === 'import');
      const source = parts.slice(1, importAt);
      const relative =
        source.some((p) => p.name === '.' || p.name === '...') &&
        source[0]?.name !== 'VariableName';
      const from = source
        .filter((p) => p.name === 'VariableName')
        .map((p) => normal(this.text(p)))
        .join('.');
      const names = this.importedNames(parts.slice(importAt + 1));
      if (names.some((n) => n.name === '*'))
        this.add('name_not_allowed', `Star import not allowed: 'from ${from || '.'} import *'`, at);
      for (const { name, alias } of names.filter((n) => n.name !== '*')) {
        this.bind(alias ?? name, scope);
        if (relative) continue;
        this.imported.set(alias ?? name, `${from}.${name}`);
        this.moduleMember(from, name, at);
      }
      if (!relative && from)
        this.imports.push({
          module: from,
          names: [from, ...names.filter((n) => n.name !== '*').map((n) => `${from}.${n.name}`)],
          index: at,
        });
      return;
    }
    for (const { name, alias } of this.importedNames(parts.slice(1))) {
      const top = name.split('.')[0];
      this.bind(alias ?? top, scope);
      this.imported.set(alias ?? top, alias ? name : top);
      this.imports.push({ module: name, names: [name], index: at });
    }
  }

  private importedNames(parts: SyntaxNode[]): { name: string; alias?: string }[] {
    return importedNames(parts.map((part) => ({ name: part.name, text: normal(this.text(part)) })));
  }

  /** A member of module `module` named `name`: not one of the modules it imported itself. */
  private moduleMember(module: string, name: string, at: number): void {
    this.addProblem(moduleMemberProblem(module, name), at);
    this.attribute(name, undefined, at);
  }

  /** The dotted module a `.`-chain of names starts from, when its root is an imported name. */
  private modulePath(node: SyntaxNode): string | undefined {
    if (node.name === 'VariableName') return this.imported.get(normal(this.text(node)));
    if (node.name !== 'MemberExpression' && node.name !== 'AttributePattern') return undefined;
    const [receiver, dot, property] = children(node);
    if (dot?.name !== '.' || property?.name !== 'PropertyName') return undefined;
    const base = this.modulePath(receiver);
    return base && `${base}.${normal(this.text(property))}`;
  }

  private member(node: SyntaxNode, scope: Scope): void {
    const [receiver, opener, ...rest] = children(node);
    this.visit(receiver, scope);
    if (opener?.name === '.') {
      const property = rest[0];
      if (!property) return;
      const name = normal(this.text(property));
      this.attribute(name, receiver, property.from);
      const module = this.modulePath(receiver);
      if (module) {
        this.moduleMember(module, name, property.from);
        this.attributeUses.push({
          module: `${module}.${name}`,
          names: [`${module}.${name}`],
          index: node.from,
        });
      }
      return;
    }
    const receiverModule = this.modulePath(receiver) ?? '';
    if (opener?.name === '[' && TYPING_MODULES.has(receiverModule.split('.')[0]))
      this.noStrings(
        node,
        'String in a typing subscript (typing evaluates it as an annotation)',
        receiver.to,
      );
    for (const child of rest) this.visit(child, scope);
  }

  /** An attribute read by its static name: `receiver.name`. */
  private attribute(raw: string, receiver: SyntaxNode | undefined, at: number): void {
    const receiverName = receiver?.name === 'VariableName' ? this.text(receiver) : undefined;
    const literal = receiver?.name === 'String' ? this.text(receiver) : undefined;
    this.addProblem(attributeProblem(normal(raw), receiverName, literal), at);
  }

  private noStrings(node: SyntaxNode, text: string, after = node.from): void {
    for (const child of children(node)) {
      if (child.to <= after) continue;
      if (child.name === 'String' || child.name === 'FormatString') {
        this.add('blocked_pattern', `Blocked pattern: ${text}`, child.from);
        return;
      }
      this.noStrings(child, text, after);
    }
  }

  /** Every reference, resolved once all bindings are known (a function may use a later global). */
  resolveReferences(): void {
    for (const { name, at, scope } of this.references) {
      if (!resolves(name, scope, this.module))
        this.add('name_not_allowed', `Name not allowed: '${name}'`, at);
    }
  }
}

export function checkParsedPython(code: string): ParsedPythonResult {
  const judge = new PythonJudge(code);
  const cookie = code
    .split('\n', 2)
    .map((line) => CODING_COOKIE.exec(line)?.[1])
    .find(Boolean);
  if (cookie && !/^utf[-_]?8$/i.test(cookie))
    judge.add('unparsable', `Source encoding other than UTF-8: '${cookie}'`, 0);
  let tree: Tree;
  try {
    tree = codeGrammar().parsePython(code);
  } catch (error) {
    const at = /No parse at (\d+)/.exec(String(error))?.[1];
    const index = at === undefined ? 0 : Number(at);
    const found = {
      rule: 'unparsable' as const,
      text: 'Code that does not parse as Python',
      index,
    };
    // A bad encoding cookie, found above, is the better reason.
    return { findings: [judge.findings[0] ?? found], imports: [], attributeUses: [] };
  }
  const tooDeep = tooDeepAt(tree);
  if (tooDeep !== undefined) {
    const text = `Code nested more than ${MAX_SYNTAX_DEPTH} levels deep`;
    return {
      findings: [{ rule: 'unparsable', text, index: tooDeep }],
      imports: [],
      attributeUses: [],
    };
  }
  judge.visit(tree.topNode, judge.module);
  if (!judge.findings.some((f) => f.rule === 'unparsable')) judge.resolveReferences();
  else
    judge.findings.splice(
      0,
      judge.findings.length,
      ...judge.findings.filter((f) => f.rule === 'unparsable').slice(0, 1),
    );
  const findings = [...new Map(judge.findings.map((f) => [`${f.text}@${f.index}`, f])).values()];
  return { findings, imports: judge.imports, attributeUses: judge.attributeUses };
}
