/**
 * Dynamic tool discovery (MGP §16) inside the kernel: the tool index follows the servers (tools/list,
 * list_changed, state changes) incrementally, the session cache holds the pinned and used tools under
 * the context budget, and the four `mgp.tools.*` kernel tools answer from them.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { KernelSettings } from '../config/types';
import type { SearchOptions, ServerTool } from '.';
import {
  createDiscoveryTools,
  createToolIndex,
  discoverable,
  DiscoveryTools,
  EmbeddingRanker,
  KERNEL_DISCOVERY_TOOL_SCHEMAS,
  matchesOf,
  SessionToolCache,
  ToolCreationOptions,
  ToolIndex,
  ToolIndexEntry,
} from '.';
import { openAiEmbeddings, type EmbeddingEndpointOptions } from '../llm/openAiEmbeddings';
import type { CompletionRequest, CompletionResult } from '../llm/modelProvider';
import type { ModelRouter } from '../llm/modelRouter';
import { ExampleRequestStore } from './exampleRequestStore';
import { ExampleRequestWriter } from './exampleRequestWriter';
import type { KernelToolRegistry } from '../kernelTools/registry';
import type { KernelTool } from '../domain/kernelTool';
import type { SupervisedServer } from '../lifecycle/supervisedServer';
import type { EffectiveSecurity } from '../domain/security';
import { toolIdOf } from '../domain/toolId';
import type { ListedTool } from '../connection/toolResults';
import type { ServerManager } from '../lifecycle/serverManager';

export interface ToolDiscoveryDeps {
  manager: ServerManager;
  kernelTools: KernelToolRegistry;
  settings(): KernelSettings;
  securityOf(server: SupervisedServer, tool: ListedTool): EffectiveSecurity;
  /** Whether calling the tool would stop for the operator's approval now (→ `pending_approval`, §16.6). */
  needsApproval(serverId: string, toolName: string): boolean;
  /** Whether the user turned the tool (or its server) off: such a tool is not indexed at all. */
  turnedOff?(serverId: string, toolName: string): boolean;
  /** §16.6 tool creation, as the config has it now (disabled unless `[kernel] tool_creation = true`). */
  creation?(): ToolCreationOptions;
}

const DESCRIPTIONS: Record<string, string> = {
  'mgp.tools.discover':
    "Search every connected server's tools by what you need, in plain words; answers with full schemas so the tools can be called at once (MGP §16.5).",
  'mgp.tools.request':
    'Ask the kernel for tools that fill a capability gap during a task; matching tools are loaded into the session (MGP §16.6).',
  'mgp.tools.session':
    'The tools loaded in this session: pinned and cached, with their token cost against the context budget (MGP §16.7).',
  'mgp.tools.session.evict':
    'Remove tools from the session cache to free context space; pinned tools stay (MGP §16.7).',
};

function serverTool(tool: ListedTool, security: EffectiveSecurity): ServerTool {
  const plain = {
    risk_level: security.risk_level,
    permissions_required: security.permissions_required,
    side_effects: security.side_effects,
    validator: security.validator,
    reversible: security.reversible,
    confirmation_required: security.confirmation_required,
  };
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Record<string, unknown> | undefined,
    annotations: tool.annotations as ServerTool['annotations'],
    security: plain,
  };
}

/** Where example requests come from when they are on (`ToolDiscovery.useExampleRequests`). */
export interface ExampleRequestSource {
  /** The folder they are cached in. */
  dir: string;
  complete(request: CompletionRequest, signal: AbortSignal): Promise<CompletionResult>;
}

/** Example requests written by the models a router offers, cached under the kernel's state folder. */
export function exampleRequestSource(stateDir: string, models: ModelRouter): ExampleRequestSource {
  return {
    dir: join(stateDir, 'example-requests'),
    complete: (request, signal) => models.complete(request, signal),
  };
}

/** Written requests are taken into the index together, after this quiet time. */
const REINDEX_DELAY_MS = 300;

/** One agent's discovery session: its cache and the `mgp.tools.*` handlers bound to it. */
export interface DiscoverySession {
  cache: SessionToolCache;
  tools: DiscoveryTools;
}

export class ToolDiscovery {
  readonly index: ToolIndex;
  readonly cache: SessionToolCache;
  tools: DiscoveryTools;
  private creationEnabled = false;
  /** The semantic strategy's ranker, when an embedding endpoint is configured. */
  private semantic?: EmbeddingRanker;
  /** Whether a semantic search ran: until then the embedding endpoint is left alone. */
  private semanticUsed = false;
  private readonly changes = new EventEmitter<{ change: [] }>();
  /** Writes example requests for the tools, when the user turned that on. */
  private examples?: ExampleRequestWriter;
  private readonly reindexing = new Map<string, NodeJS.Timeout>();

  constructor(private readonly deps: ToolDiscoveryDeps) {
    this.index = createToolIndex();
    this.cache = new SessionToolCache({ budget: deps.settings().toolContextBudget });
    this.tools = this.createTools();
    deps.kernelTools.register(
      ...Object.keys(KERNEL_DISCOVERY_TOOL_SCHEMAS).map((name) => this.kernelTool(name)),
    );
    deps.manager.bus.on('transition', (t) => this.follow(t.server_id));
    deps.manager.bus.on(
      'listChanged',
      ({ server_id, kind }) => kind === 'tools' && this.follow(server_id),
    );
  }

  private createTools(cache = this.cache): DiscoveryTools {
    const toolCreation = this.deps.creation?.() ?? { enabled: false };
    if (cache === this.cache) this.creationEnabled = toolCreation.enabled;
    return createDiscoveryTools({
      index: this.index,
      cache,
      needsApproval: (entry) =>
        !entry.kernel && this.deps.needsApproval(entry.server_id, entry.name),
      toolCreation,
      search: this.searchOptions(),
    });
  }

  /**
   * The semantic strategy ranks with the endpoint's embeddings when one is configured; without one
   * it is unavailable, and the strategy answers by keywords.
   */
  private searchOptions(): SearchOptions {
    const ranker = () => this.semantic;
    return {
      semantic: {
        get name() {
          return ranker()?.name ?? 'no embedding endpoint';
        },
        available: () => ranker()?.available() ?? false,
        match: (query, index, keep, k) => {
          const semantic = ranker();
          if (!semantic) throw new Error('no embedding endpoint is configured');
          this.semanticUsed = true;
          return matchesOf(semantic, query, index, keep, k);
        },
      },
    };
  }

  /**
   * Ranks the semantic strategy with this OpenAI-compatible embeddings endpoint, or by keywords
   * without one; the tools' vectors are computed ahead of queries once a semantic search ran.
   */
  useEmbeddings(endpoint: EmbeddingEndpointOptions | undefined): void {
    this.semantic =
      endpoint &&
      new EmbeddingRanker(openAiEmbeddings(endpoint), {
        name: `${endpoint.model} at ${endpoint.baseUrl}`,
      });
    this.warmSemantic();
  }

  /**
   * Has the model write example requests for each tool (doc2query), cached on disk by the tool's
   * definition, and indexes them with the tool; `undefined` turns it off and indexes without them.
   */
  useExampleRequests(source: ExampleRequestSource | undefined): void {
    this.examples?.dispose();
    this.examples =
      source &&
      new ExampleRequestWriter({
        store: new ExampleRequestStore(source.dir),
        complete: (request, signal) => source.complete(request, signal),
        onWritten: (serverId) => this.reindexSoon(serverId),
        onPaused: (reason) =>
          this.deps.manager.bus.emit('log', {
            server_id: 'mgp',
            level: 'warning',
            message: `example requests for tool discovery paused for five minutes: ${reason}`,
          }),
      });
    this.resync();
  }

  private reindexSoon(serverId: string): void {
    if (this.reindexing.has(serverId)) return;
    const timer = setTimeout(() => {
      this.reindexing.delete(serverId);
      this.follow(serverId);
    }, REINDEX_DELAY_MS);
    timer.unref?.();
    this.reindexing.set(serverId, timer);
  }

  /** The semantic ranker's name (the endpoint's model), or undefined when discovery ranks by keywords only. */
  get semanticRanker(): string | undefined {
    return this.semantic?.name;
  }

  /**
   * Embeds the tools ahead of queries. The endpoint is contacted only once a semantic search has
   * asked for it: nothing reaches a model before someone used a model feature (issue 24, finding 2).
   */
  private warmSemantic(): void {
    if (!this.semantic || !this.semanticUsed) return;
    // A failure is remembered by the ranker, and discovery answers by keywords meanwhile.
    this.semantic.warm(this.index.list().filter(discoverable)).catch(() => undefined);
  }

  /** Follows the config: tool creation turned on or off ends the session's created tools and starts anew. */
  reconfigure(): void {
    const wanted = this.deps.creation?.().enabled ?? false;
    if (wanted === this.creationEnabled) return;
    this.tools.endSession();
    this.tools = this.createTools();
  }

  /** The session ends (kernel shutdown): created tools are removed (§16.6 guardrail 2). */
  endSession(): void {
    this.tools.endSession();
    this.examples?.dispose();
    for (const timer of this.reindexing.values()) clearTimeout(timer);
    this.reindexing.clear();
  }

  /** Indexes every kernel tool (MGP §16.8: listed, searchable; only the meta-tools go to the model). */
  indexKernelTools(): void {
    const tools = this.deps.kernelTools.list().map((tool): ServerTool => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      security: { risk_level: tool.risk, permissions_required: [], side_effects: [] },
    }));
    this.index.upsertServer('mgp', tools, 'connected', true);
  }

  onDidChange(listener: () => void): () => void {
    this.changes.on('change', listener);
    return () => this.changes.off('change', listener);
  }

  /** Re-reads every server (after a config change: effective security may have changed). */
  resync(): void {
    for (const server of this.deps.manager.list()) this.follow(server.id);
  }

  /**
   * Re-reads one server into the index: its tools when connected (less those turned off), its status
   * otherwise.
   */
  private follow(serverId: string): void {
    const server = this.deps.manager.find(serverId);
    const off = (name: string) => this.deps.turnedOff?.(serverId, name) ?? false;
    if (!server) this.index.removeServer(serverId);
    else if (server.state === 'connected')
      this.index.upsertServer(serverId, this.withExamples(serverId, server, off), 'connected');
    else this.index.setServerStatus(serverId, 'disconnected');
    // A tool gone from the index (removed, or turned off) leaves the session too.
    this.cache.refresh((id) => this.index.get(id));
    this.refreshPins();
    this.warmSemantic();
    this.changes.emit('change');
  }

  /** A connected server's tools as the index reads them, with their example requests when on. */
  private withExamples(
    serverId: string,
    server: SupervisedServer,
    off: (name: string) => boolean,
  ): ServerTool[] {
    const tools = server.tools
      .filter((tool) => !off(tool.name))
      .map((tool) => serverTool(tool, this.deps.securityOf(server, tool)));
    const examples = this.examples;
    if (!examples) return tools;
    examples.request(serverId, tools);
    return tools.map((tool) => ({ ...tool, exampleRequests: examples.written(tool) }));
  }

  /**
   * A session of its own, for one agent's conversation (MGP §16.7): its own cache under the budget
   * the config sets now, with the configured pins, over the kernel's one index. Its tools answer the
   * `mgp.tools.*` calls of a caller that carries it (`Caller.toolSession`).
   */
  openSession(): DiscoverySession {
    const cache = new SessionToolCache({ budget: this.deps.settings().toolContextBudget });
    this.pinConfigured(cache);
    return { cache, tools: this.createTools(cache) };
  }

  /** The config's pinned tools (`[kernel] pinned_tools` and each server's `pinned_tools`) that exist now. */
  refreshPins(): void {
    this.pinConfigured(this.cache);
  }

  private pinConfigured(cache: SessionToolCache): void {
    const wanted = new Set([
      ...this.deps.settings().pinnedTools,
      ...this.deps.manager
        .list()
        .flatMap((server) =>
          server.config.policy.pinnedTools.map((tool) => toolIdOf(server.id, tool)),
        ),
    ]);
    for (const id of wanted) {
      const entry = this.index.get(id);
      if (entry && !cache.isPinned(id)) cache.pin(entry);
    }
  }

  /** Puts a tool into the session cache as used (the Discovery panel's "Try it" and agents' calls). */
  used(serverId: string, toolName: string): string[] {
    const entry: ToolIndexEntry | undefined = this.index.get(toolIdOf(serverId, toolName));
    const evicted = entry ? this.cache.use(entry) : [];
    this.changes.emit('change');
    return evicted;
  }

  private kernelTool(name: string): KernelTool {
    return {
      name,
      description: DESCRIPTIONS[name],
      inputSchema: KERNEL_DISCOVERY_TOOL_SCHEMAS[name] as Record<string, unknown>,
      operatorOnly: false,
      risk: 'safe',
      inModelContext: name === 'mgp.tools.discover' || name === 'mgp.tools.request',
      run: async (args, context) => {
        const result = await (context.caller.toolSession ?? this.tools).call(name, args);
        this.changes.emit('change');
        return result;
      },
    };
  }
}
