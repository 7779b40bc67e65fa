/**
 * A declared `blocked_patterns` entry (MGP §7.3, plain text such as `eval(` or `os.system`) as a search
 * that cannot be dodged by spacing: `eval (x)` and `os . system` match too, since the languages allow
 * them. A pattern that starts or ends with a letter gets a word boundary there, so `eval(` does not match
 * `retrieval(`; a dot before it still matches (`window.eval(`). A pattern with a quote in it is searched
 * in the code with strings kept, any other in the code with strings and comments blanked.
 */
import type { CodePattern } from './codeDefaults';
import { boundedSet } from './text';

const cache = new Map<string, CodePattern>();

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export function compileDeclaredPattern(pattern: string): CodePattern {
  const known = cache.get(pattern);
  if (known) return known;
  const tokens = pattern.trim().match(/[\w$]+|\s+|[^\w$\s]/g) ?? [];
  let source = '';
  tokens.forEach((token, i) => {
    if (/^\s+$/.test(token)) source += '\\s+';
    else source += (i > 0 && !/^\s+$/.test(tokens[i - 1]) ? '\\s*' : '') + escape(token);
  });
  const head = /^[\w$]/.test(pattern.trim()) ? '(?<![\\w$])' : '';
  const tail = /[\w$]$/.test(pattern.trim()) ? '(?![\\w$])' : '';
  const compiled: CodePattern = {
    name: pattern,
    regex: new RegExp(`${head}${source}${tail}`),
    view: /['"`]/.test(pattern) ? 'stripped' : 'codeOnly',
  };
  return boundedSet(cache, pattern, compiled);
}
