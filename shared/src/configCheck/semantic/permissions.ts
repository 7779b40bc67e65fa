import { isReverseDomainPermission, STANDARD_PERMISSIONS } from '../../schemas/vocabulary';
import { suggest } from '../suggest';
import { isTable, RuleContext } from './context';
import type { ServerView } from './servers';

const STANDARD_NAMES = STANDARD_PERMISSIONS.map((permission) => permission.name);

/** Lists of permissions a server table can hold: the server's own (§3) and each tool override's (§4.3). */
function permissionLists(server: ServerView): { path: (string | number)[]; items: unknown[] }[] {
  const lists: { path: (string | number)[]; items: unknown[] }[] = [];
  const mgp = server.table.mgp;
  if (isTable(mgp) && Array.isArray(mgp.permissions_required))
    lists.push({
      path: [...server.path, 'mgp', 'permissions_required'],
      items: mgp.permissions_required,
    });
  const tools = server.table.tools;
  if (isTable(tools)) {
    for (const [name, tool] of Object.entries(tools)) {
      if (isTable(tool) && Array.isArray(tool.permissions_required))
        lists.push({
          path: [...server.path, 'tools', name, 'permissions_required'],
          items: tool.permissions_required,
        });
    }
  }
  return lists;
}

/** MGP §3.2: a permission is a standard one or a custom reverse-domain name (`com.example.x`). */
export function checkPermissions(ctx: RuleContext, servers: ServerView[]): void {
  for (const server of servers) {
    for (const { path, items } of permissionLists(server)) {
      items.forEach((item, index) => {
        if (
          typeof item !== 'string' ||
          STANDARD_NAMES.includes(item) ||
          isReverseDomainPermission(item)
        )
          return;
        const suggestion = suggest(item, STANDARD_NAMES);
        ctx.report(
          [...path, index],
          ['value'],
          'error',
          'unknown-permission',
          `unknown permission "${item}": use a standard permission (MGP §3.2: ${STANDARD_NAMES.join(', ')}) or a reverse-domain name such as com.example.${item.replace(/[^a-z0-9_]/gi, '_')}${suggestion ? `. Did you mean "${suggestion}"?` : ''}`,
          suggestion ? { suggestion } : undefined,
        );
      });
    }
  }
}
