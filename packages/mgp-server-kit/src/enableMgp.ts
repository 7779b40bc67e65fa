/**
 * `enableMgp(server, { permissions, trustLevel })`: MGP on an existing `McpServer`, without changing
 * how its tools are written (MGP §17.7: zero-config, non-invasive). It answers `capabilities.mgp`
 * when the client offers it and only then (§2.4), adds each tool's `security` to tools/list (§4),
 * holds tools whose permissions the operator has not approved (§3.4–3.6, refusing with a §14 error),
 * takes audit events (§6.3), and gives tools streaming (§12), events (§13.3) and lifecycle
 * notifications (§11.5) when the client negotiated them.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ErrorCodes, mgpError } from './errors';
import { Permissions } from './permissions';
import { ToolStream } from './streaming';
import {
  type AuditEvent,
  type Extension,
  type LifecycleState,
  MGP_VERSION,
  type ToolSecurity,
  type TrustLevel,
} from './types';

export interface MgpOptions {
  /** Every permission the server's tools need (MGP §3.2); the operator decides on each. */
  permissions?: string[];
  trustLevel?: TrustLevel;
  /** The server's id for discovery (MGP §2.3, §15.3). */
  serverId?: string;
  /** Each tool's security metadata, by tool name (or later with `mgp.secure`). */
  tools?: Record<string, ToolSecurity>;
  /**
   * The extensions the server takes part in; the answer is their intersection with the client's.
   * Default: security, access_control, audit and error_handling (Tier 2), plus lifecycle,
   * streaming and bidirectional when `tier3` is set.
   */
  extensions?: Extension[];
  /** Also offer lifecycle, streaming and bidirectional (Tier 3). */
  tier3?: boolean;
  /** Event channels the server publishes on (MGP §13.5). */
  eventChannels?: string[];
}

type Handler = (
  request: { method: string; params?: Record<string, unknown> },
  extra: { requestId: RequestId },
) => Promise<unknown>;

const TIER2: Extension[] = ['security', 'access_control', 'audit', 'error_handling'];
const TIER3: Extension[] = ['lifecycle', 'streaming', 'bidirectional'];

const message = <M extends string>(method: M) =>
  z.object({ method: z.literal(method), params: z.looseObject({}).optional() });

/** What `enableMgp` gives back: the MGP state of the session and the helpers tools use. */
export class Mgp {
  /** The extensions active on this session: ours ∩ the client's (MGP §2.4 rule 1); empty for plain MCP. */
  active = new Set<Extension>();
  /** Whether the client offered MGP at initialize. */
  negotiated = false;
  readonly permissions = new Permissions();
  /** The audit events the kernel forwarded (§6.3), the last 1,000. */
  readonly audit: AuditEvent[] = [];
  private readonly security = new Map<string, ToolSecurity>();
  private readonly calls = new Map<string, ToolStream>();
  private lifecycleState: LifecycleState = 'connected';

  constructor(
    private readonly server: McpServer,
    readonly options: MgpOptions,
  ) {
    for (const [name, security] of Object.entries(options.tools ?? {})) this.secure(name, security);
  }

  /** Declares a tool's security metadata (MGP §4). */
  secure(tool: string, security: ToolSecurity): this {
    this.security.set(tool, security);
    return this;
  }

  has(extension: Extension): boolean {
    return this.active.has(extension);
  }

  /** The stream of the tool call `extra` belongs to (MGP §12); it sends chunks only when the call asked. */
  stream(extra: { requestId: RequestId }): ToolStream {
    return (
      this.calls.get(String(extra.requestId)) ?? new ToolStream(this.server, extra.requestId, false)
    );
  }

  /** Publishes an event (MGP §13.3), when the client negotiated bidirectional. */
  async emit(channel: string, data: Record<string, unknown>): Promise<boolean> {
    if (!this.has('bidirectional')) return false;
    await this.server.server.notification({
      method: 'notifications/mgp.event',
      params: { channel, timestamp: new Date().toISOString(), data },
    } as never);
    return true;
  }

  /** Announces a state change (MGP §11.5), when the client negotiated lifecycle. */
  async announce(state: LifecycleState, reason: string): Promise<boolean> {
    if (!this.has('lifecycle')) return false;
    const previous = this.lifecycleState;
    this.lifecycleState = state;
    await this.server.server.notification({
      method: 'notifications/mgp.lifecycle',
      params: {
        server_id: this.options.serverId,
        previous_state: previous,
        new_state: state,
        reason,
        timestamp: new Date().toISOString(),
      },
    } as never);
    return true;
  }

  /** `capabilities.mgp` for a client that offered `offered` (MGP §2.3). */
  capability(offered: Record<string, unknown>): Record<string, unknown> {
    const ours = this.options.extensions ?? [...TIER2, ...(this.options.tier3 ? TIER3 : [])];
    const theirs = Array.isArray(offered.extensions) ? (offered.extensions as string[]) : [];
    this.negotiated = true;
    this.active = new Set(ours.filter((name) => theirs.includes(name)));
    return {
      version: MGP_VERSION,
      extensions: [...this.active],
      permissions_required: this.options.permissions ?? [],
      ...(this.options.serverId && { server_id: this.options.serverId }),
      ...(this.options.trustLevel && { trust_level: this.options.trustLevel }),
      ...(this.options.eventChannels && { event_channels: this.options.eventChannels }),
    };
  }

  wrapInitialize(original: Handler): Handler {
    return async (request, extra) => {
      const capabilities = request.params?.capabilities as Record<string, unknown> | undefined;
      const offered = capabilities?.mgp;
      const result = (await original(request, extra)) as { capabilities?: Record<string, unknown> };
      // MGP §2.4 rule 3: no mgp unless the client offered it.
      if (typeof offered !== 'object' || offered === null) return result;
      return {
        ...result,
        capabilities: {
          ...result.capabilities,
          mgp: this.capability(offered as Record<string, unknown>),
        },
      };
    };
  }

  wrapToolsList(original: Handler): Handler {
    return async (request, extra) => {
      const result = (await original(request, extra)) as { tools: { name: string }[] };
      if (!this.negotiated) return result;
      return {
        ...result,
        tools: result.tools.map((tool) => {
          const security = this.security.get(tool.name);
          return security ? { ...tool, security } : tool;
        }),
      };
    };
  }

  /**
   * The SDK turns whatever a tool throws into a tool error result; an MGP error (§14) must reach the
   * client as the JSON-RPC error it is. The tool's handler is wrapped to keep it for the call.
   */
  private keepMgpErrors(name: string): void {
    const tools = (
      this.server as unknown as { _registeredTools: Record<string, { handler: unknown }> }
    )._registeredTools;
    const tool = tools?.[name];
    const handler = tool?.handler as ((...args: unknown[]) => unknown) & { mgpKept?: true };
    if (typeof handler !== 'function' || handler.mgpKept) return;
    const kept = async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const extra = args[args.length - 1] as { requestId?: RequestId } | undefined;
        // Told by its shape, not its class: the server's SDK may be another copy than the kit's.
        if (typeof code === 'number' && code >= 1000 && code < 6000)
          this.thrown.set(String(extra?.requestId), error as Error);
        throw error;
      }
    };
    tool.handler = Object.assign(kept, { mgpKept: true as const });
  }

  private readonly thrown = new Map<string, Error>();

  wrapToolsCall(original: Handler): Handler {
    return async (request, extra) => {
      const params = request.params ?? {};
      const name = String(params.name);
      const known = (this.server as unknown as { _registeredTools: Record<string, unknown> })
        ._registeredTools?.[name];
      if (!known && this.has('error_handling'))
        throw mgpError(ErrorCodes.ToolNotFound, `Unknown tool: ${name}`, {
          category: 'validation',
        });
      this.keepMgpErrors(name);
      const required = this.security.get(name)?.permissions_required ?? [];
      if (this.has('security')) {
        const missing = this.permissions.firstMissing(required);
        if (missing)
          throw mgpError(
            ErrorCodes.PermissionDenied,
            `Permission denied: ${name} needs "${missing.permission}" (${missing.state.replace('_', ' ')})`,
            { category: 'security', retryable: false, details: missing },
          );
      }
      const wanted = (params._mgp as { stream?: unknown } | undefined)?.stream === true;
      const stream = new ToolStream(this.server, extra.requestId, wanted && this.has('streaming'));
      this.calls.set(String(extra.requestId), stream);
      try {
        const result = (await original(request, extra)) as Record<string, unknown>;
        const thrown = this.thrown.get(String(extra.requestId));
        if (thrown) throw thrown;
        const meta = stream.resultMeta();
        return meta ? { ...result, _mgp: { ...(result._mgp as object), ...meta } } : result;
      } finally {
        this.calls.delete(String(extra.requestId));
        this.thrown.delete(String(extra.requestId));
      }
    };
  }

  install(): void {
    const low = this.server.server;
    low.setRequestHandler(message('mgp/permission/await'), (request) => {
      const permissions = request.params?.permissions;
      this.permissions.awaitDecision(Array.isArray(permissions) ? permissions.map(String) : []);
      return { acknowledged: true };
    });
    low.setRequestHandler(message('mgp/permission/grant'), (request) => {
      const grants = request.params?.grants;
      if (typeof grants !== 'object' || grants === null)
        throw mgpError(ErrorCodes.InvalidToolArgs, 'mgp/permission/grant needs grants', {
          category: 'validation',
        });
      this.permissions.grant(
        grants as Record<string, string>,
        typeof request.params?.expires_at === 'string' ? request.params.expires_at : undefined,
      );
      return { acknowledged: true };
    });
    low.setRequestHandler(message('mgp/stream/cancel'), (request) => {
      const stream = this.calls.get(String(request.params?.request_id));
      if (!stream) return { cancelled: false };
      stream.cancel();
      return { cancelled: true, partial_result: stream.partialResult() };
    });
    low.setNotificationHandler(message('notifications/mgp.audit'), (notification) => {
      this.audit.push((notification.params ?? {}) as unknown as AuditEvent);
      if (this.audit.length > 1000) this.audit.splice(0, this.audit.length - 1000);
    });
    // The SDK registers tools/list and tools/call when the first tool is registered, which may come
    // after this: each handler is wrapped as it is set, and those set already now.
    const handlers = (low as unknown as { _requestHandlers: Map<string, Handler> })
      ._requestHandlers;
    const wrap = (method: string, handler: Handler): Handler =>
      method === 'initialize'
        ? this.wrapInitialize(handler)
        : method === 'tools/list'
          ? this.wrapToolsList(handler)
          : method === 'tools/call'
            ? this.wrapToolsCall(handler)
            : handler;
    const set = handlers.set.bind(handlers);
    for (const [method, handler] of [...handlers]) set(method, wrap(method, handler));
    handlers.set = (method: string, handler: Handler) => set(method, wrap(method, handler));
  }
}

/**
 * Adds MGP to an `McpServer` (MGP §17.5 Tier 1 in one line, Tier 2 with per-tool security):
 * `const mgp = enableMgp(server, { permissions: ['network.outbound'], trustLevel: 'standard' })`.
 */
export function enableMgp(server: McpServer, options: MgpOptions = {}): Mgp {
  const mgp = new Mgp(server, options);
  mgp.install();
  return mgp;
}
