/**
 * How the probe server answers one client session: the scenario's tools (with their MGP §4 security
 * metadata), the permission flow from the server's side (MGP §3.5–3.6: a tool that needs a
 * permission is refused until a grant approves it), `mgp/stream/cancel` (§12.7), and §14 errors with
 * their `_mgp` recovery data.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ProbeSession } from './probeSession';
import type { ClientScenario, ProbeTool } from './scenario';

const message = <M extends string>(method: M) =>
  z.object({ method: z.literal(method), params: z.looseObject({}).optional() });

/** MGP §14.3 codes the probe answers with, and their §14.4 `_mgp` data. */
export const PERMISSION_DENIED = 1000;
export const TOOL_NOT_FOUND = 4001;
export const INVALID_TOOL_ARGS = 4000;

export function mgpError(
  code: number,
  text: string,
  recovery: Record<string, unknown> & { category: string; retryable: boolean },
): McpError {
  return new McpError(code, text, { _mgp: recovery });
}

function requiredPermissions(tool: ProbeTool): string[] {
  const required = tool.security.permissions_required;
  return Array.isArray(required) ? required.map(String) : [];
}

/** MGP §3.5: nothing restricted runs while a decision is awaited, nor without an approval. */
function refusal(session: ProbeSession, tool: ProbeTool): McpError | undefined {
  const required = requiredPermissions(tool);
  if (!required.length) return undefined;
  if (session.awaiting)
    return mgpError(PERMISSION_DENIED, `${tool.name} waits for the operator's decision`, {
      category: 'security',
      retryable: false,
    });
  const missing = required.filter((name) => session.grants.get(name) !== 'approved');
  if (!missing.length) return undefined;
  return mgpError(PERMISSION_DENIED, `${tool.name} needs ${missing.join(', ')}, not approved`, {
    category: 'security',
    retryable: false,
  });
}

export function installProbeHandlers(
  server: Server,
  session: ProbeSession,
  scenario: ClientScenario,
  facts: Record<string, unknown>,
): void {
  const tools = scenario.tools(facts);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema, security, annotations, listed }) => ({
      name,
      description,
      inputSchema,
      ...(annotations && { annotations }),
      ...listed,
      security,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const params = request.params as Record<string, unknown>;
    const tool = tools.find((candidate) => candidate.name === params.name);
    if (!tool)
      throw mgpError(TOOL_NOT_FOUND, `no tool ${String(params.name)}`, {
        category: 'validation',
        retryable: false,
      });
    const refused = refusal(session, tool);
    if (refused) throw refused;
    // The SDK hands the handler the params as its schema knows them, without `_mgp` (MGP §12.3):
    // it is read from the message as it came.
    const raw = session
      .requests('tools/call')
      .reverse()
      .find((call) => call.id === extra.requestId);
    const mgp = raw?.params._mgp;
    return tool.run({
      session,
      requestId: extra.requestId,
      args: (params.arguments ?? {}) as Record<string, unknown>,
      mgp: typeof mgp === 'object' && mgp !== null ? (mgp as Record<string, unknown>) : {},
      notify: (method, notice) => extra.sendNotification({ method, params: notice } as never),
      signal: extra.signal,
    });
  });
  server.setRequestHandler(message('mgp/permission/await'), () => {
    session.awaiting = true;
    return { acknowledged: true };
  });
  server.setRequestHandler(message('mgp/permission/grant'), (request) => {
    const grants = request.params?.grants;
    if (typeof grants !== 'object' || grants === null || Array.isArray(grants))
      throw mgpError(INVALID_TOOL_ARGS, 'mgp/permission/grant needs grants (MGP §3.6)', {
        category: 'validation',
        retryable: false,
      });
    for (const [name, grant] of Object.entries(grants)) session.grants.set(name, String(grant));
    session.awaiting = false;
    return { acknowledged: true };
  });
  server.setRequestHandler(message('mgp/stream/cancel'), (request) => {
    const stream = session.streams.get(String(request.params?.request_id));
    if (!stream) return { cancelled: false };
    const partial = stream.partial();
    stream.cancel(String(request.params?.reason ?? 'cancelled'));
    return { cancelled: true, partial_result: { content: [{ type: 'text', text: partial }] } };
  });
  server.oninitialized = () => {
    scenario.initialized?.(
      session,
      (method, params) => server.notification({ method, params } as never),
      facts,
    );
  };
}
