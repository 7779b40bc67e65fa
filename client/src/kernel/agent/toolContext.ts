/**
 * What an agent's model is offered before each inference (MGP §16.3, §16.7, §16.8): the meta-tools
 * first (L2); then, as real tool definitions (L3), the session's pinned tools, the tools it used
 * (the session cache, least recently used evicted under `[kernel.tool_context_budget]`), and the
 * tools its last discovery answered, for the next inference only. Administrative kernel tools are
 * never offered, whatever the index holds.
 */
import { kernelToolVisibility, toolTokens, type ToolIndexEntry } from '../discovery';
import type { KernelTool } from '../domain/kernelTool';
import { KERNEL_SERVER_ID } from '../domain/kernelTool';
import { toolIdOf } from '../domain/toolId';
import type { ModelTool } from '../llm/chatModel';
import type { DiscoverySession } from '../discovery/toolDiscovery';
import { ModelToolNames, type ToolRef } from './toolNames';

/** What the tool context needs of the kernel. */
export interface ToolContextKernel {
  discovery: {
    openSession(): DiscoverySession;
    index: { get(toolId: string): ToolIndexEntry | undefined };
  };
  kernelTools: { get(name: string): KernelTool | undefined; list(): KernelTool[] };
}

export interface ToolContextOptions {
  /** Also offer `mgp.tools.session` and `mgp.tools.session.evict` (§16.8: the model MAY use them). */
  sessionTools?: boolean;
}

export interface OfferedTools {
  tools: ModelTool[];
  /** cl100k tokens of the definitions offered. */
  tokens: number;
  /** The servers whose tools are offered (their instructions go with them). */
  servers: string[];
}

const idOf = (ref: ToolRef) => toolIdOf(ref.serverId, ref.toolName);

export class AgentToolContext {
  readonly names = new ModelToolNames();
  readonly session: DiscoverySession;
  private discovered: string[] = [];
  private discoveredNext: string[] = [];
  private readonly definitions = new WeakMap<object, ModelTool>();

  constructor(
    private readonly kernel: ToolContextKernel,
    private readonly options: ToolContextOptions = {},
  ) {
    this.session = kernel.discovery.openSession();
  }

  /** The kernel tools the model sees: the meta-tools, and the session tools when wanted. */
  private kernelOffers(): KernelTool[] {
    return this.kernel.kernelTools.list().filter((tool) => {
      if (tool.operatorOnly) return false;
      const visibility = kernelToolVisibility(tool.name);
      return visibility === 'meta' || (visibility === 'optional' && this.options.sessionTools);
    });
  }

  private definitionOf(key: object, ref: ToolRef, entry: Omit<ModelTool, 'name'>): ModelTool {
    let definition = this.definitions.get(key);
    if (!definition) {
      definition = {
        name: this.names.nameOf(ref),
        description: entry.description,
        inputSchema: entry.inputSchema,
      };
      this.definitions.set(key, definition);
    }
    return definition;
  }

  /** An index entry the model may be offered: a server's tool, or a kernel tool that is not administrative. */
  private offerable(entry: ToolIndexEntry | undefined): entry is ToolIndexEntry {
    if (!entry) return false;
    if (!entry.kernel) return entry.status === 'connected';
    const tool = this.kernel.kernelTools.get(entry.name);
    return Boolean(tool && !tool.operatorOnly && kernelToolVisibility(entry.name) !== 'admin');
  }

  /**
   * The tools for the next inference, with their token cost. Discovery answers of the inference
   * before are offered this once; the cache follows the index first (a changed tool, a gone server).
   */
  offer(): OfferedTools {
    const index = this.kernel.discovery.index;
    this.session.cache.refresh((id) => index.get(id));
    this.discovered = this.discoveredNext;
    this.discoveredNext = [];
    const tools: ModelTool[] = [];
    const seen = new Set<string>();
    let tokens = 0;
    const add = (definition: ModelTool) => {
      if (seen.has(definition.name)) return;
      seen.add(definition.name);
      tools.push(definition);
      tokens += toolTokens(definition);
    };
    for (const tool of this.kernelOffers())
      add(this.definitionOf(tool, { serverId: KERNEL_SERVER_ID, toolName: tool.name }, tool));
    const entries = [
      ...this.session.cache.pinnedEntries(),
      ...this.session.cache.cachedEntries().reverse(),
      ...this.discovered.map((id) => index.get(id)),
    ];
    const servers = new Set<string>();
    for (const entry of entries)
      if (this.offerable(entry)) {
        add(this.definitionOf(entry, { serverId: entry.server_id, toolName: entry.name }, entry));
        if (!entry.kernel) servers.add(entry.server_id);
      }
    return { tools, tokens, servers: [...servers] };
  }

  /** The tool behind a model's name, when this session offered it; undefined for any other name. */
  resolve(modelName: string): (ToolRef & { meta: boolean }) | undefined {
    const ref = this.names.resolve(modelName);
    if (!ref) return undefined;
    return { ...ref, meta: ref.serverId === KERNEL_SERVER_ID };
  }

  /** The input schema of a tool the session offered (for a correctable error). */
  schemaOf(ref: ToolRef): Record<string, unknown> | undefined {
    if (ref.serverId === KERNEL_SERVER_ID)
      return this.kernel.kernelTools.get(ref.toolName)?.inputSchema;
    return this.kernel.discovery.index.get(idOf(ref))?.inputSchema;
  }

  /** A discovery answered these tools: they are offered at the next inference. */
  discoveredTools(toolIds: readonly string[]): void {
    for (const id of toolIds) if (!this.discoveredNext.includes(id)) this.discoveredNext.push(id);
  }

  /** A tool the model called joins the session cache; returns the tool ids evicted to make room. */
  used(ref: ToolRef): string[] {
    if (ref.serverId === KERNEL_SERVER_ID) return [];
    const entry = this.kernel.discovery.index.get(idOf(ref));
    return entry ? this.session.cache.use(entry) : [];
  }

  /** The model's name of each tool in a discovery answer (the `call_as` the loop adds to it). */
  callName(serverId: string, toolName: string): string {
    return this.names.nameOf({ serverId, toolName });
  }

  /** Ends the session: the cache is dropped and any tool it created removed (§16.6). */
  close(): void {
    this.session.tools.endSession();
  }
}
