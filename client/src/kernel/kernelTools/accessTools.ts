/** MGP §5.4 kernel tools: `mgp.access.query`, `mgp.access.grant`, `mgp.access.revoke`, with the spec's schemas. */
import type { AccessControl, EntryType } from '../access/accessControl';
import type { KernelTool } from '../domain/kernelTool';

function text(args: Record<string, unknown>, key: string, required = true): string | undefined {
  const value = args[key];
  if (typeof value === 'string' && value) return value;
  if (required) throw new Error(`${key} is required`);
  return undefined;
}

function entryType(args: Record<string, unknown>): EntryType {
  const value = text(args, 'entry_type');
  if (value !== 'server_grant' && value !== 'tool_grant')
    throw new Error('entry_type must be server_grant or tool_grant');
  return value;
}

export function accessTools(access: AccessControl): KernelTool[] {
  return [queryTool(access), grantTool(access), revokeTool(access)];
}

function queryTool(access: AccessControl): KernelTool {
  return {
    name: 'mgp.access.query',
    description:
      'Query the current access state for an agent and a server or tool: tool_grant, then server_grant, then the default policy (MGP §5.2, §5.4).',
    inputSchema: {
      type: 'object',
      properties: {
        agent_id: { type: 'string', description: 'Agent identifier' },
        server_id: { type: 'string', description: 'Target server' },
        tool_name: { type: 'string', description: 'Target tool (optional)' },
      },
      required: ['agent_id', 'server_id'],
    },
    operatorOnly: false,
    risk: 'safe',
    inModelContext: false,
    async run(args) {
      return access.query(
        text(args, 'agent_id') as string,
        text(args, 'server_id') as string,
        text(args, 'tool_name', false),
      );
    },
  };
}

function grantTool(access: AccessControl): KernelTool {
  return {
    name: 'mgp.access.grant',
    description:
      "Grant (allow) or withhold (deny) an agent's access to a whole server or one tool. Requires operator-level permissions (MGP §5.4).",
    inputSchema: {
      type: 'object',
      properties: {
        entry_type: { type: 'string', enum: ['server_grant', 'tool_grant'] },
        agent_id: { type: 'string' },
        server_id: { type: 'string' },
        tool_name: { type: 'string', description: 'Required for tool_grant' },
        permission: { type: 'string', enum: ['allow', 'deny'] },
        justification: { type: 'string' },
        expires_at: { type: 'string', format: 'date-time' },
      },
      required: ['entry_type', 'agent_id', 'server_id', 'permission'],
    },
    operatorOnly: true,
    risk: 'dangerous',
    inModelContext: false,
    async run(args, context) {
      const permission = text(args, 'permission');
      if (permission !== 'allow' && permission !== 'deny')
        throw new Error('permission must be allow or deny');
      const expires = text(args, 'expires_at', false);
      if (expires !== undefined && Number.isNaN(Date.parse(expires)))
        throw new Error('expires_at must be an RFC 3339 date-time');
      const entry = await access.grant(
        {
          entry_type: entryType(args),
          agent_id: text(args, 'agent_id') as string,
          server_id: text(args, 'server_id') as string,
          tool_name: text(args, 'tool_name', false),
          permission,
          justification: text(args, 'justification', false),
          expires_at: expires,
        },
        context.caller.agentId,
        context.traceId,
      );
      return { granted: true, entry };
    },
  };
}

function revokeTool(access: AccessControl): KernelTool {
  return {
    name: 'mgp.access.revoke',
    description: 'Revoke an access entry made with mgp.access.grant (MGP §5.4).',
    inputSchema: {
      type: 'object',
      properties: {
        agent_id: { type: 'string' },
        server_id: { type: 'string' },
        entry_type: { type: 'string', enum: ['server_grant', 'tool_grant'] },
        tool_name: { type: 'string' },
      },
      required: ['agent_id', 'server_id', 'entry_type'],
    },
    operatorOnly: true,
    risk: 'dangerous',
    inModelContext: false,
    async run(args, context) {
      const removed = await access.revoke(
        {
          agent_id: text(args, 'agent_id') as string,
          server_id: text(args, 'server_id') as string,
          entry_type: entryType(args),
          tool_name: text(args, 'tool_name', false),
        },
        context.caller.agentId,
        context.traceId,
      );
      return { revoked: removed > 0, entries_removed: removed };
    },
  };
}
