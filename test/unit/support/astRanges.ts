// The reference for shared/src/configCheck/rangeScanner.ts: the same pointer → ranges map, built from
// toml-eslint-parser's full AST. Tests compare the two on every fixture.
import type { AST } from 'toml-eslint-parser';
import { Range, rangeOfLoc } from '@shared/configCheck/diagnostic';
import { PointerLocation, pointerOf } from '@shared/configCheck/rangeScanner';

function keyNames(key: AST.TOMLKey): string[] {
  return key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : k.value));
}

/**
 * Builds, once per parse, JSON pointer → ranges for every key, value and table header, so a schema or
 * semantic error at `/servers/1/transport` lands on the exact text.
 */
export function rangesFromAst(ast: AST.TOMLProgram, text: string): Map<string, PointerLocation> {
  const map = new Map<string, PointerLocation>();
  const entry = (path: readonly (string | number)[]) => {
    const pointer = pointerOf(path);
    let location = map.get(pointer);
    if (!location) map.set(pointer, (location = {}));
    return location;
  };

  const visitValue = (node: AST.TOMLContentNode, path: (string | number)[]) => {
    entry(path).value = rangeOfLoc(node.loc);
    if (node.type === 'TOMLArray')
      node.elements.forEach((element, index) => visitValue(element, [...path, index]));
    else if (node.type === 'TOMLInlineTable') node.body.forEach((kv) => visitKeyValue(kv, path));
  };

  const visitKeyValue = (kv: AST.TOMLKeyValue, base: (string | number)[]) => {
    const names = keyNames(kv.key);
    names.forEach((_, index) => {
      const path = [...base, ...names.slice(0, index + 1)];
      const location = entry(path);
      // For a dotted key `a.b.c`, `/a` and `/a/b` point at their own part; the last gets the whole key.
      location.key ??= rangeOfLoc(index === names.length - 1 ? kv.key.loc : kv.key.keys[index].loc);
    });
    visitValue(kv.value, [...base, ...names]);
  };

  const top = ast.body[0];
  for (const node of top.body) {
    if (node.type === 'TOMLKeyValue') {
      visitKeyValue(node, []);
      continue;
    }
    const header = headerRange(node, text);
    const tablePath = node.resolvedKey;
    const names = keyNames(node.key);
    // Each key part of the header locates its own (implicit) table, e.g. `servers` in `[servers.mgp]`.
    let resolvedIndex = 0;
    names.forEach((name, index) => {
      while (resolvedIndex < tablePath.length && tablePath[resolvedIndex] !== name) resolvedIndex++;
      entry(tablePath.slice(0, resolvedIndex + 1)).key ??= rangeOfLoc(node.key.keys[index].loc);
      resolvedIndex++;
    });
    entry(tablePath).key ??= rangeOfLoc(node.key.loc);
    const location = entry(tablePath);
    location.header ??= header;
    location.value ??= rangeOfLoc(node.loc);
    node.body.forEach((kv) => visitKeyValue(kv, [...tablePath]));
  }
  return map;
}

/** The header's own text: from `[` to the closing `]` or `]]`. */
function headerRange(table: AST.TOMLTable, text: string): Range {
  const start = rangeOfLoc(table.loc).start;
  const keyEnd = rangeOfLoc(table.key.loc).end;
  const blanks = /^[ \t]*/.exec(text.slice(table.key.range[1]))![0].length;
  return {
    start,
    end: {
      line: keyEnd.line,
      character: keyEnd.character + blanks + (table.kind === 'array' ? 2 : 1),
    },
  };
}
