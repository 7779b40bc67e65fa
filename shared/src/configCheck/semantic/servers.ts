import { asString, isTable, RuleContext, Table } from './context';

/** A server from either format, with the JSON path of each field that rules look at. */
export interface ServerView {
  path: (string | number)[];
  /** `[[servers]]` or `[[mcp_servers]]`, for messages. */
  header: string;
  id?: string;
  idKey: 'id' | 'name';
  transport?: string;
  transportPath: (string | number)[];
  command?: string;
  commandPath: (string | number)[];
  url?: string;
  urlPath: (string | number)[];
  table: Table;
}

export function mgpServers(value: Table): ServerView[] {
  const servers = Array.isArray(value.servers) ? value.servers : [];
  return servers.flatMap((table, index): ServerView[] => {
    if (!isTable(table)) return [];
    const path = ['servers', index];
    return [
      {
        path,
        header: '[[servers]]',
        id: asString(table.id),
        idKey: 'id',
        transport: asString(table.transport),
        transportPath: [...path, 'transport'],
        command: asString(table.command),
        commandPath: [...path, 'command'],
        url: asString(table.url),
        urlPath: [...path, 'url'],
        table,
      },
    ];
  });
}

export function openFangServers(value: Table): ServerView[] {
  const servers = Array.isArray(value.mcp_servers) ? value.mcp_servers : [];
  return servers.flatMap((table, index): ServerView[] => {
    if (!isTable(table)) return [];
    const path = ['mcp_servers', index];
    const transport = isTable(table.transport) ? table.transport : {};
    return [
      {
        path,
        header: '[[mcp_servers]]',
        id: asString(table.name),
        idKey: 'name',
        transport: asString(transport.type),
        transportPath: [...path, 'transport', 'type'],
        command: asString(transport.command),
        commandPath: [...path, 'transport', 'command'],
        url: asString(transport.url),
        urlPath: [...path, 'transport', 'url'],
        table,
      },
    ];
  });
}

/** Ids must be unique within a file; the second and later uses are errors. */
export function checkDuplicateIds(ctx: RuleContext, servers: ServerView[]): void {
  const first = new Map<string, ServerView>();
  for (const server of servers) {
    if (!server.id) continue;
    const earlier = first.get(server.id);
    if (!earlier) {
      first.set(server.id, server);
      continue;
    }
    const line = ctx.range([...earlier.path, earlier.idKey]).start.line + 1;
    ctx.report(
      [...server.path, server.idKey],
      ['value'],
      'error',
      'duplicate-id',
      `duplicate server ${server.idKey} "${server.id}": already used at line ${line}`,
    );
  }
}

/** stdio needs a command; http and sse need a url (MGP §15.2, OpenFang transport). */
export function checkTransportNeeds(ctx: RuleContext, servers: ServerView[]): void {
  for (const server of servers) {
    const transport = server.transport ?? (server.url && !server.command ? 'http' : 'stdio');
    const name = server.id ? `server "${server.id}"` : server.header;
    if (transport === 'stdio' && !server.command) {
      ctx.report(
        server.path,
        ['header', 'key'],
        'error',
        'stdio-needs-command',
        `${name} uses the stdio transport but has no \`command\``,
        { missingKey: 'command', table: server.header },
      );
    }
    if ((transport === 'http' || transport === 'sse') && !server.url) {
      ctx.report(
        server.path,
        ['header', 'key'],
        'error',
        `${transport}-needs-url`,
        `${name} uses the ${transport} transport but has no \`url\``,
        { missingKey: 'url', table: server.header },
      );
    }
  }
}
