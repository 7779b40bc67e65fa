import {
  CompletionItem,
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
} from 'vscode-languageserver/node';
import type { ConfigFormat } from '@shared/configFiles';
import type { KernelStateParams } from '@shared/lspMessages';
import { schemaForFormat } from '@shared/schemas';
import { STANDARD_PERMISSIONS } from '@shared/schemas/vocabulary';
import { cursorContext } from '../cursor';
import { documentation, SchemaNode, schemaAt, typesOf } from '../schemaNav';

export interface CompletionInput {
  format: ConfigFormat;
  text: string;
  line: number;
  character: number;
  /** Server ids declared anywhere the kernel reads, for keys that name a server. */
  serverIds: string[];
  state: KernelStateParams;
}

function rootSchema(format: ConfigFormat): SchemaNode {
  return schemaForFormat(format) as unknown as SchemaNode;
}

/** A skeleton value to insert after `key = `, as a snippet. */
function valueSnippet(schema: SchemaNode): string {
  const types = typesOf(schema);
  if (schema.enum?.length) return `"\${1|${schema.enum.map(String).join(',')}|}"`;
  if (types.includes('array')) return '[$1]';
  if (types.includes('boolean')) return '${1|true,false|}';
  if (types.includes('integer') || types.includes('number')) return `\${1:${schema.default ?? 0}}`;
  if (types.includes('object')) return '{ $1 }';
  return '"$1"';
}

function keyItems(table: SchemaNode | undefined, present: Set<string>): CompletionItem[] {
  return Object.entries(table?.properties ?? {})
    .filter(([name]) => !present.has(name))
    .map(([name, schema]) => {
      const isTable =
        typesOf(schema).includes('object') ||
        (typesOf(schema).includes('array') &&
          schema.items &&
          typesOf(schema.items).includes('object'));
      return {
        label: name,
        kind: isTable ? CompletionItemKind.Module : CompletionItemKind.Property,
        detail: typesOf(schema).join(' | '),
        documentation: { kind: MarkupKind.Markdown, value: documentation(name, schema) },
        insertText: isTable ? name : `${name} = ${valueSnippet(schema)}`,
        insertTextFormat: InsertTextFormat.Snippet,
        sortText: `${(table?.required ?? []).includes(name) ? '0' : '1'}${name}`,
      };
    });
}

function valueItems(
  input: CompletionInput,
  schema: SchemaNode | undefined,
  keyPath: string[],
  inArray: boolean,
  serverIdOfTable?: string,
): CompletionItem[] {
  const key = keyPath[keyPath.length - 1] ?? '';
  const target = inArray ? schema?.items : schema;
  const quoteIfNeeded = (value: string) =>
    inArray || typesOf(target ?? {}).includes('string') ? value : value;
  if (key === 'permissions_required') {
    return STANDARD_PERMISSIONS.map((p) => ({
      label: p.name,
      kind: CompletionItemKind.EnumMember,
      detail: `risk: ${p.risk ?? 'n/a'} (MGP §3.2)`,
      documentation: p.description,
    }));
  }
  if (key === 'enabled_feature_sets' || key === 'disabled_feature_sets') {
    const live = input.state.servers.find((s) => s.id === serverIdOfTable);
    return (live?.featureSets ?? []).map((f) => ({
      label: f.name,
      kind: CompletionItemKind.EnumMember,
      detail: `declared by ${live?.id}`,
      documentation: f.description,
    }));
  }
  if (key === 'server_id' || key === 'pinned_tools') {
    return input.serverIds.map((id) => ({
      label: key === 'pinned_tools' ? `${id}.` : id,
      kind: CompletionItemKind.Reference,
      detail: 'configured server',
    }));
  }
  if (target?.enum)
    return target.enum.map((value) => ({
      label: quoteIfNeeded(String(value)),
      kind: CompletionItemKind.EnumMember,
    }));
  if (target && typesOf(target).includes('boolean'))
    return ['true', 'false'].map((label) => ({ label, kind: CompletionItemKind.Value }));
  return [];
}

export function completions(
  input: CompletionInput,
  presentKeys: (tablePath: (string | number)[]) => Set<string>,
  serverIdAt: (tablePath: (string | number)[]) => string | undefined,
): CompletionItem[] {
  const context = cursorContext(input.text, input.line, input.character);
  const root = rootSchema(input.format);
  if (context.kind === 'header') {
    const tables =
      input.format === 'openfang'
        ? ['mcp_servers', 'mcp_servers.transport', 'a2a', 'a2a.external_agents']
        : [
            'servers',
            'servers.mgp',
            'servers.env',
            'servers.headers',
            'servers.mcpl',
            'kernel',
            'kernel.tool_context_budget',
            'a2a',
            'a2a.external_agents',
          ];
    return tables.map((label) => ({ label, kind: CompletionItemKind.Module }));
  }
  if (context.kind === 'key')
    return keyItems(schemaAt(root, context.tablePath), presentKeys(context.tablePath));
  const schema = schemaAt(root, [...context.tablePath, ...context.keyPath]);
  return valueItems(input, schema, context.keyPath, context.inArray, serverIdAt(context.tablePath));
}
