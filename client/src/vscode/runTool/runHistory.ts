/**
 * The Run Tool panel's history: the last runs of each tool, kept in the workspace's extension storage
 * so they survive a window reload. Bounded three ways: runs per tool, tools, and the size of each run
 * (long texts are cut, images keep their size but not their bytes). Pure of `vscode`: any store with
 * `get` and `update` (a Memento) will do.
 */
import type {
  ExchangeView,
  HistoryEntryView,
  ResultItemView,
  ResultView,
  ToolKey,
} from '@shared/toolPanelMessages';

export interface HistoryStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface HistoryLimits {
  runsPerTool: number;
  tools: number;
  /** The most characters of one text (a result item, the arguments, a side of the raw exchange). */
  textChars: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = {
  runsPerTool: 20,
  tools: 100,
  textChars: 20_000,
};

export const HISTORY_KEY = 'mgp.runTool.history';

/** Tool → its runs, newest first; the tools in the order they were last run, most recent last. */
type Stored = Record<string, HistoryEntryView[]>;

export function historyKeyOf(key: ToolKey): string {
  return `${key.serverId}\u0000${key.toolName}`;
}

function cut(text: string, max: number): string {
  return text.length > max
    ? `${text.slice(0, max)}\n… (${text.length - max} more characters not kept)`
    : text;
}

function boundItem(item: ResultItemView, max: number): ResultItemView {
  switch (item.kind) {
    case 'text':
      return { ...item, text: cut(item.text, max) };
    case 'image': {
      // The picture is not kept: its size and type are.
      return { kind: 'image', mimeType: item.mimeType, bytes: item.bytes };
    }
    case 'resource':
      return item.text !== undefined ? { ...item, text: cut(item.text, max) } : item;
    case 'other':
      return { ...item, json: cut(item.json, max) };
    default:
      return item;
  }
}

function boundResult(result: ResultView, max: number): ResultView {
  return {
    ...result,
    items: result.items.slice(0, 50).map((item) => boundItem(item, max)),
    ...(result.structured !== undefined ? { structured: cut(result.structured, max) } : {}),
  };
}

function boundExchange(exchange: ExchangeView, max: number): ExchangeView {
  return {
    ...(exchange.request !== undefined ? { request: cut(exchange.request, max) } : {}),
    response: cut(exchange.response, max),
  };
}

/** The arguments, as they were when short enough; otherwise a note that they were too long to keep. */
function boundArgs(args: Record<string, unknown>, max: number): Record<string, unknown> {
  const text = JSON.stringify(args);
  return text.length <= max ? args : { '(not kept)': `arguments of ${text.length} characters` };
}

/** A run as the history keeps it. */
export function boundEntry(entry: HistoryEntryView, limits: HistoryLimits): HistoryEntryView {
  const max = limits.textChars;
  return {
    ...entry,
    args: boundArgs(entry.args, max),
    ...(entry.result ? { result: boundResult(entry.result, max) } : {}),
    ...(entry.error ? { error: { ...entry.error, message: cut(entry.error.message, max) } } : {}),
    ...(entry.exchange ? { exchange: boundExchange(entry.exchange, max) } : {}),
  };
}

export class RunHistory {
  constructor(
    private readonly storage: HistoryStorage,
    private readonly limits: HistoryLimits = DEFAULT_HISTORY_LIMITS,
  ) {}

  private stored(): Stored {
    const value = this.storage.get<Stored>(HISTORY_KEY);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  }

  /** The tool's runs, newest first. */
  list(key: ToolKey): HistoryEntryView[] {
    const runs = this.stored()[historyKeyOf(key)];
    return Array.isArray(runs) ? runs : [];
  }

  async add(key: ToolKey, entry: HistoryEntryView): Promise<HistoryEntryView[]> {
    const id = historyKeyOf(key);
    const stored = this.stored();
    const runs = [boundEntry(entry, this.limits), ...this.list(key)].slice(
      0,
      this.limits.runsPerTool,
    );
    // Re-inserted last: the object's key order is the order the tools were last run.
    const others = Object.keys(stored).filter((tool) => tool !== id);
    const kept = others.slice(Math.max(0, others.length - (this.limits.tools - 1)));
    const next: Stored = {};
    for (const tool of kept) next[tool] = stored[tool];
    next[id] = runs;
    await this.storage.update(HISTORY_KEY, next);
    return runs;
  }

  async clear(key: ToolKey): Promise<void> {
    const id = historyKeyOf(key);
    const rest: Stored = {};
    for (const [tool, runs] of Object.entries(this.stored())) if (tool !== id) rest[tool] = runs;
    await this.storage.update(HISTORY_KEY, rest);
  }
}
