import { DocumentSymbol, SymbolKind } from 'vscode-languageserver/node';
import type { Analysis } from '../analysis';
import { locate, pointerOf } from '@shared/configCheck/pointers';
import { asString, isTable } from '@shared/configCheck/semantic/context';

/** Servers (and the kernel table) in the outline, each with its sub-tables. */
export function documentSymbols(analysis: Analysis): DocumentSymbol[] {
  const pointers = analysis.pointers;
  const value = analysis.value;
  if (!pointers || !value) return [];
  const openfang = analysis.format === 'openfang';
  const listKey = openfang ? 'mcp_servers' : 'servers';
  const list = Array.isArray(value[listKey]) ? (value[listKey] as unknown[]) : [];
  const symbols: DocumentSymbol[] = [];
  list.forEach((table, index) => {
    if (!isTable(table)) return;
    const path = [listKey, index];
    const range = locate(pointers, pointerOf(path), ['value']);
    const selection =
      locate(pointers, pointerOf([...path, openfang ? 'name' : 'id']), ['value']) ??
      locate(pointers, pointerOf(path), ['header']);
    if (!range || !selection) return;
    const transport = isTable(table.transport) ? table.transport : table;
    const kind =
      asString(openfang ? transport.type : table.transport) ??
      (asString(transport.url) ? 'http' : 'stdio');
    const target = asString(transport.command) ?? asString(transport.url) ?? '';
    const children = Object.keys(table)
      .filter((key) => isTable(table[key]))
      .flatMap((key): DocumentSymbol[] => {
        const childRange = locate(pointers, pointerOf([...path, key]), ['value']);
        const childSelection = locate(pointers, pointerOf([...path, key]), ['key', 'header']);
        return childRange && childSelection
          ? [
              {
                name: key,
                kind: SymbolKind.Namespace,
                range: childRange,
                selectionRange: childSelection,
              },
            ]
          : [];
      });
    const end = children.reduce(
      (last, child) => (child.range.end.line > last.line ? child.range.end : last),
      range.end,
    );
    symbols.push({
      name:
        asString(openfang ? table.name : table.id) ??
        `(server ${index + 1} without ${openfang ? 'name' : 'id'})`,
      detail: `${kind}${target ? ` · ${target}` : ''}`,
      kind: SymbolKind.Module,
      range: { start: range.start, end },
      selectionRange: selection,
      children,
    });
  });
  for (const key of openfang ? ['a2a'] : ['kernel', 'a2a']) {
    const range = locate(pointers, pointerOf([key]), ['value']);
    const selection = locate(pointers, pointerOf([key]), ['header', 'key']);
    if (range && selection && isTable(value[key]))
      symbols.push({ name: key, kind: SymbolKind.Namespace, range, selectionRange: selection });
  }
  return symbols;
}
