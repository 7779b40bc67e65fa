import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResult,
  CallToolResultSchema,
  GetPromptResult,
  LoggingMessageNotificationSchema,
  Prompt,
  ReadResourceResult,
  Resource,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ConfiguredServer } from '../config/model';
import { MGP_KERNEL_VERSION } from '../../../../shared/src/version';
import { KernelError } from '../errors';
import type { ResolvedEnvironment } from './environment';
import { isLegacySseSignal, sseTransport, stdioTransport, streamableHttpTransport } from './transports';

/**
 * A tool as the server lists it, unknown fields kept: the SDK's `listTools()` strips MGP's `security`
 * and `_mgp` (DESIGN.md), so tools/list goes through this loose schema.
 */
export const LooseToolSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.string().optional() }).optional(),
  annotations: z.looseObject({}).optional(),
});
export type ListedTool = z.infer<typeof LooseToolSchema>;
const LooseToolsPageSchema = z.looseObject({ tools: z.array(LooseToolSchema), nextCursor: z.string().optional() });

export interface ConnectionEvents {
  onLog(level: string, message: string): void;
  onToolsChanged(): void;
  /** The transport closed: by us (`expected`) or not. */
  onClosed(expected: boolean): void;
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export interface CappedResult extends CallToolResult {
  /** Set when text content was cut to the server's tool_result_max_chars. */
  truncated?: { originalChars: number; keptChars: number };
}

/** One live MCP session with a server: base MCP, client side, over the SDK. */
export class ServerConnection {
  private closing = false;

  private constructor(readonly server: ConfiguredServer, readonly client: Client, private readonly transport: Transport) {}

  static async open(server: ConfiguredServer, resolved: ResolvedEnvironment, events: ConnectionEvents): Promise<ServerConnection> {
    const timeout = server.settings.connectTimeoutMs;
    const connectWith = async (transport: Transport) => {
      const client = new Client({ name: 'mgp-kernel', version: MGP_KERNEL_VERSION }, { capabilities: { roots: { listChanged: true } } });
      await client.connect(transport, { timeout });
      return new ServerConnection(server, client, transport);
    };
    let connection: ServerConnection;
    if (server.transport === 'stdio') {
      connection = await connectWith(stdioTransport(server, resolved, { onStderr: (text) => events.onLog('stderr', text.trimEnd()) }));
    } else if (server.transport === 'sse') {
      connection = await connectWith(sseTransport(server, resolved));
    } else {
      try {
        connection = await connectWith(streamableHttpTransport(server, resolved));
      } catch (error) {
        if (!isLegacySseSignal(error)) throw error;
        events.onLog('info', `Streamable HTTP refused (${error instanceof Error ? error.message : String(error)}); falling back to legacy SSE`);
        connection = await connectWith(sseTransport(server, resolved));
      }
    }
    connection.wire(events);
    return connection;
  }

  private wire(events: ConnectionEvents): void {
    this.client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      events.onLog(params.level, typeof params.data === 'string' ? params.data : JSON.stringify(params.data));
    });
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.onToolsChanged());
    const previous = this.transport.onclose;
    this.transport.onclose = () => {
      previous?.();
      events.onClosed(this.closing);
    };
  }

  get pid(): number | undefined {
    return (this.transport as { pid?: number | null }).pid ?? undefined;
  }

  /** tools/list, every page, with MGP's extra fields kept. */
  async listTools(): Promise<ListedTool[]> {
    if (!this.client.getServerCapabilities()?.tools) return [];
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LooseToolsPageSchema, { timeout: this.server.settings.requestTimeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async listResources(): Promise<Resource[]> {
    if (!this.client.getServerCapabilities()?.resources) return [];
    const resources: Resource[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listResources(cursor ? { cursor } : {}, { timeout: this.server.settings.requestTimeoutMs });
      resources.push(...page.resources);
      cursor = page.nextCursor;
    } while (cursor);
    return resources;
  }

  async listPrompts(): Promise<Prompt[]> {
    if (!this.client.getServerCapabilities()?.prompts) return [];
    const prompts: Prompt[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listPrompts(cursor ? { cursor } : {}, { timeout: this.server.settings.requestTimeoutMs });
      prompts.push(...page.prompts);
      cursor = page.nextCursor;
    } while (cursor);
    return prompts;
  }

  readResource(uri: string): Promise<ReadResourceResult> {
    return this.client.readResource({ uri }, { timeout: this.server.settings.requestTimeoutMs });
  }

  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.client.getPrompt({ name, arguments: args }, { timeout: this.server.settings.requestTimeoutMs });
  }

  /** tools/call with the server's timeout (reset by progress) and its result cap. */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CappedResult> {
    try {
      const result = (await this.client.callTool({ name, arguments: args }, CallToolResultSchema, {
        timeout: this.server.settings.requestTimeoutMs,
        resetTimeoutOnProgress: true,
        signal: options.signal,
        onprogress: options.onProgress,
      })) as CallToolResult;
      return capResult(result, this.server.settings.toolResultMaxChars);
    } catch (error) {
      if ((error as { code?: unknown }).code === -32001) {
        throw new KernelError('Timeout', `${this.server.id}: ${name} did not answer within ${this.server.settings.requestTimeoutMs} ms (cancelled)`);
      }
      throw error;
    }
  }

  async ping(timeoutMs = 5000): Promise<void> {
    await this.client.ping({ timeout: timeoutMs });
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client.close();
  }
}

/** Cuts text content beyond `maxChars` in all and marks the result truncated. */
export function capResult(result: CallToolResult, maxChars: number): CappedResult {
  let total = 0;
  for (const item of result.content ?? []) if (item.type === 'text') total += item.text.length;
  if (total <= maxChars) return result;
  let left = maxChars;
  const content = (result.content ?? []).map((item) => {
    if (item.type !== 'text') return item;
    const kept = item.text.slice(0, Math.max(0, left));
    left -= kept.length;
    return { ...item, text: kept };
  });
  content.push({ type: 'text', text: `\n[truncated: ${total - maxChars} of ${total} characters omitted]` });
  return { ...result, content, truncated: { originalChars: total, keptChars: maxChars } };
}

