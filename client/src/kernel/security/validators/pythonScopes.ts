/**
 * Python's scopes for the strict code check (codeParsedPython.ts): where a name is bound, and
 * whether a reference resolves to a binding the code made or to an allowed builtin. Module- and
 * class-level bindings count only for names Python does not provide itself, since such a binding
 * may not have run yet (`if 0: getattr = f`).
 */
import { isDunder, PY_ALLOWED_BUILTINS, PY_PROVIDED_NAMES } from './codeStrictNames';

export type ScopeKind = 'module' | 'function' | 'class' | 'comprehension';

export interface Scope {
  kind: ScopeKind;
  parent?: Scope;
  bound: Set<string>;
  declaredGlobal: Set<string>;
}

/** Names are NFKC-normalised, as Python does (`ｇetattr` is `getattr`). */
export const normal = (name: string): string => name.normalize('NFKC');

export function newScope(kind: ScopeKind, parent?: Scope): Scope {
  return { kind, parent, bound: new Set(), declaredGlobal: new Set() };
}

/** Whether `name`, read in `from`, is bound there or around it, or is an allowed builtin. */
export function resolves(name: string, from: Scope, module: Scope): boolean {
  let scope: Scope | undefined = from;
  while (scope) {
    if (scope.declaredGlobal.has(name)) scope = module;
    if (scope.bound.has(name)) {
      if (scope.kind === 'function' || scope.kind === 'comprehension') return true;
      return PY_ALLOWED_BUILTINS.has(name) || (!PY_PROVIDED_NAMES.has(name) && !isDunder(name));
    }
    if (scope === module) break;
    scope = scope.parent;
    // class bodies are not enclosing scopes of the functions in them
    while (scope && scope.kind === 'class') scope = scope.parent;
  }
  return PY_ALLOWED_BUILTINS.has(name);
}
