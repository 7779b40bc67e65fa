import { Hover, MarkupKind } from 'vscode-languageserver/node';
import type { KernelStateParams } from '@shared/lspMessages';
import { schemaForFormat } from '@shared/schemas';
import type { Analysis } from '../analysis';
import type { Position, Range } from '@shared/configCheck/diagnostic';
import { documentation, SchemaNode, schemaAt } from '../schemaNav';
import { isTable } from '@shared/configCheck/semantic/context';

function contains(range: Range, position: Position): boolean {
  const after =
    position.line > range.start.line ||
    (position.line === range.start.line && position.character >= range.start.character);
  const before =
    position.line < range.end.line ||
    (position.line === range.end.line && position.character <= range.end.character);
  return after && before;
}

function pathOf(pointer: string): (string | number)[] {
  return pointer
    .split('/')
    .slice(1)
    .map((part) =>
      /^\d+$/.test(part) ? Number(part) : part.replace(/~1/g, '/').replace(/~0/g, '~'),
    );
}

function liveState(
  analysis: Analysis,
  path: (string | number)[],
  state: KernelStateParams,
  file: string,
): string | undefined {
  if (path.length !== 2 || typeof path[1] !== 'number') return undefined;
  const table = (analysis.value?.[path[0] as string] as unknown[] | undefined)?.[path[1]];
  const id = isTable(table) ? (table.id ?? table.name) : undefined;
  if (typeof id !== 'string') return undefined;
  const live = state.servers.find((s) => s.id === id && s.file === file);
  if (!live) return `**${id}**: not started by the kernel in this window.`;
  const lines = [`**${id}** — ${live.state}`];
  if (live.toolCount !== undefined) lines.push(`${live.toolCount} tool(s)`);
  if (live.featureSets?.length)
    lines.push(`Feature sets: ${live.featureSets.map((f) => `\`${f.name}\``).join(', ')}`);
  if (live.error) lines.push(`Error: ${live.error}`);
  return lines.join('\n\n');
}

/** Spec-derived documentation for the key under the cursor; live server state on a server's header. */
export function hover(
  analysis: Analysis,
  position: Position,
  state: KernelStateParams,
  file: string,
): Hover | null {
  if (!analysis.pointers || !analysis.format) return null;
  const root = schemaForFormat(analysis.format) as unknown as SchemaNode;
  let best: { pointer: string; range: Range; isHeader: boolean } | undefined;
  for (const [pointer, location] of analysis.pointers.entries()) {
    for (const [range, isHeader] of [
      [location.key, false],
      [location.header, true],
    ] as const) {
      if (range && contains(range, position) && (!best || pointer.length > best.pointer.length))
        best = { pointer, range, isHeader };
    }
  }
  if (!best) return null;
  const path = pathOf(best.pointer);
  const name = String([...path].reverse().find((part) => typeof part === 'string') ?? '');
  const schema = schemaAt(root, path);
  const parts = [
    schema ? documentation(name, schema) : undefined,
    best.isHeader || path.length === 2 ? liveState(analysis, path, state, file) : undefined,
  ].filter(Boolean);
  if (!parts.length) return null;
  return {
    contents: { kind: MarkupKind.Markdown, value: parts.join('\n\n---\n\n') },
    range: best.range,
  };
}
