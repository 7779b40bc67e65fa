/**
 * Resource templates (MCP, Resources: Resource Templates): the variables a URI template names and its
 * expansion per RFC 6570, which `url-template` implements to level 4 (operators, explode, prefixes).
 */
import { parseTemplate } from 'url-template';

/** RFC 6570 §2.2: an expression's operator, the one character before its variable list. */
const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&', '=', ',', '!', '@', '|']);

/**
 * The variable names of a URI template, in order and once each (RFC 6570 §2.3: a comma-separated
 * list, each name possibly followed by a `:N` prefix or `*` explode modifier, §2.4).
 */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, expression] of template.matchAll(/\{([^{}]*)\}/g)) {
    const list = OPERATORS.has(expression[0]) ? expression.slice(1) : expression;
    for (const spec of list.split(',')) {
      const name = spec.replace(/(\*|:\d+)$/, '').trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** The template with the given values substituted (a value left out expands to nothing, RFC 6570 §3.2.1). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return parseTemplate(template).expand(values);
}
