/**
 * tools/list and tools/call over the low-level SDK Server. Not McpServer: it drops `security` from
 * listed tools, `_mgp` from tools/call params, and turns every thrown error into an `isError` result,
 * where MGP needs JSON-RPC errors with codes (MGP §14).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Events } from './events';
import { ITEM_ICONS } from './icons';
import type { InFlightCalls } from './inflight';
import type { ServerOptions } from './options';
import { permissionDenied, type Permissions } from './permissions';
import type { Session } from './session';
import { type ToolContext, type ToolDef, toolError, type ToolResult } from './tooling';
import { nextTurn } from './util';
import { LooseCallToolRequestSchema } from './wire';

type CallParams = z.infer<typeof LooseCallToolRequestSchema>['params'];

interface CallExtra {
  requestId: RequestId;
  signal: AbortSignal;
  sendNotification(notification: {
    method: string;
    params?: Record<string, unknown>;
  }): Promise<void>;
}

export interface RegistryDeps {
  session: Session;
  options: ServerOptions;
  permissions: Permissions;
  calls: InFlightCalls;
  events: Events;
}

/** As McpServer words it, so plain MCP clients see the same messages as before. */
function mcpMessage(message: string): string {
  return new McpError(ErrorCode.InvalidParams, message).message;
}

function issuesText(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length ? `${i.message} at ${i.path.join('.')}` : i.message))
    .join('\n');
}

function jsonSchemaOf(schema: z.ZodObject, io: 'input' | 'output'): Record<string, unknown> {
  // McpServer lists a tool without arguments with this bare schema.
  if (io === 'input' && Object.keys(schema.shape).length === 0)
    return { type: 'object', properties: {} };
  return z.toJSONSchema(schema, { target: 'draft-7', io }) as Record<string, unknown>;
}

export class ToolRegistry {
  constructor(
    private readonly tools: ToolDef[],
    private readonly deps: RegistryDeps,
  ) {}

  /** Every permission some tool needs, for `capabilities.mgp.permissions_required` (MGP §2.3). */
  permissionsRequired(): string[] {
    return [...new Set(this.tools.flatMap((tool) => tool.security.permissions_required))];
  }

  all(): readonly ToolDef[] {
    return this.tools;
  }

  /** Plain MCP clients see the original tools without MGP metadata, unless --mcp-all-tools. */
  private get showsMgp(): boolean {
    return this.deps.session.isMgp || this.deps.options.mcpAllTools;
  }

  private visible(): ToolDef[] {
    return this.showsMgp ? this.tools : this.tools.filter((tool) => tool.plainMcp);
  }

  list() {
    const withSecurity = this.showsMgp;
    return {
      tools: this.visible().map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: jsonSchemaOf(tool.input, 'input'),
        annotations: tool.annotations,
        icons: ITEM_ICONS,
        execution: { taskSupport: 'forbidden' },
        ...(tool.output && { outputSchema: jsonSchemaOf(tool.output, 'output') }),
        ...(withSecurity && { security: tool.security }),
      })),
    };
  }

  async call(params: CallParams, extra: CallExtra): Promise<ToolResult> {
    const tool = this.visible().find((candidate) => candidate.name === params.name);
    if (!tool) return toolError(mcpMessage(`Tool ${params.name} not found`));
    const args = tool.input.safeParse(params.arguments ?? {});
    if (!args.success) {
      return toolError(
        mcpMessage(
          `Input validation error: Invalid arguments for tool ${tool.name}: ${issuesText(args.error)}`,
        ),
      );
    }
    await this.checkPermissions(tool);
    return this.execute(tool, args.data, params, extra);
  }

  /** MGP §3.5: no restricted operation before its grant; enforced only when `security` was negotiated. */
  private async checkPermissions(tool: ToolDef): Promise<void> {
    if (!this.deps.session.has('security')) return;
    const missing = this.deps.permissions.firstMissing(tool.security.permissions_required);
    if (!missing) return;
    await this.deps.events.emit('security.alert', 'warning', {
      kind: 'permission_denied',
      tool: tool.name,
      ...missing,
    });
    throw permissionDenied(tool.name, missing.permission, missing.state);
  }

  private async execute(
    tool: ToolDef,
    args: z.output<z.ZodObject>,
    params: CallParams,
    extra: CallExtra,
  ): Promise<ToolResult> {
    const { calls, events, session } = this.deps;
    const handle = calls.start(extra.requestId);
    const ctx: ToolContext = {
      requestId: extra.requestId,
      signal: AbortSignal.any([extra.signal, handle.cancel.signal]),
      streaming: params._mgp?.stream === true && session.has('streaming'),
      progressToken: params._meta?.progressToken,
      notify: (method, notificationParams) =>
        extra.sendNotification({ method, params: notificationParams }),
      setPartial: (partial) => (handle.partial = partial),
    };
    const started = Date.now();
    let outcome: { is_error: boolean; error_code?: number } = { is_error: true };
    try {
      const result = await tool.run(args, ctx);
      outcome = { is_error: result.isError === true };
      // A cancelled call answers after the `mgp/stream/cancel` that stopped it (MGP §12.7).
      if (handle.cancel.signal.aborted) await nextTurn();
      return result;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'number' && Number.isSafeInteger(code)) {
        outcome = { is_error: true, error_code: code };
        throw error;
      }
      return toolError(error instanceof Error ? error.message : String(error));
    } finally {
      calls.finish(extra.requestId);
      const data = {
        tool: tool.name,
        request_id: extra.requestId,
        duration_ms: Date.now() - started,
        ...outcome,
      };
      await events.emit('tool.completed', outcome.is_error ? 'warning' : 'info', data);
    }
  }
}

export function installToolHandlers(server: Server, registry: ToolRegistry): void {
  server.setRequestHandler(ListToolsRequestSchema, () => registry.list());
  server.setRequestHandler(LooseCallToolRequestSchema, (request, extra) =>
    registry.call(request.params, extra),
  );
}
