/**
 * State and checkpoints (MCPL §8), kept per server and feature set in the workspace's state folder so
 * they survive a restart of the editor. Each stateful tools/call answer adds a checkpoint to a tree
 * (§8.2); its `data` (full state) or `patch` (RFC 6902, applied with fast-json-patch) gives the
 * state at that checkpoint (§8.3), sent back with the next request (§8.4). Rollback (§8.5–§8.7) is
 * asked of the server; an unknown or pruned checkpoint is error -32005.
 */
import { join } from 'node:path';
import { applyPatch, type Operation, validate as validatePatch } from 'fast-json-patch';
import { JsonStore } from '../store/jsonStore';
import { isRecord, mcplError, McplErrorCodes } from './protocol';

/** Checkpoints kept per feature set; the oldest go first (the server decides its own retention, §8.7). */
export const MAX_CHECKPOINTS = 200;
/** The largest state snapshot kept, in JSON characters; a larger one is kept as a reference only. */
export const MAX_STATE_CHARS = 1_000_000;

export interface CheckpointNode {
  id: string;
  parent: string | null;
  createdAt: string;
  /** The tool whose answer created it. */
  tool?: string;
  /** Whether the host holds the state at this checkpoint (else the server manages it, §8.3). */
  hasData: boolean;
}

export interface FeatureSetState {
  current?: string;
  checkpoints: CheckpointNode[];
  /** State at each checkpoint that has data. */
  data: Record<string, unknown>;
}

interface Document {
  version: 1;
  servers: Record<string, Record<string, FeatureSetState>>;
}

export interface StateAnswer {
  checkpoint: string;
  parent: string | null;
  data?: unknown;
  patch?: Operation[];
}

/** The `state` of a tools/call answer (§8.2, §8.3), or a reason it is not one. */
export function parseStateAnswer(value: unknown): StateAnswer | string {
  if (!isRecord(value)) return 'state is not an object';
  if (typeof value.checkpoint !== 'string' || value.checkpoint === '')
    return 'state has no checkpoint';
  const parent = typeof value.parent === 'string' ? value.parent : null;
  if (value.patch !== undefined) {
    if (!Array.isArray(value.patch)) return 'state.patch is not an array of operations';
    const problem = validatePatch(value.patch as Operation[]);
    if (problem) return `state.patch is not RFC 6902: ${problem.message.split('\n')[0]}`;
  }
  return {
    checkpoint: value.checkpoint,
    parent,
    data: value.data,
    patch: value.patch as Operation[] | undefined,
  };
}

function isDocument(value: unknown): value is Document {
  return isRecord(value) && value.version === 1 && isRecord(value.servers);
}

export type RollbackSender = (
  serverId: string,
  featureSet: string,
  checkpoint: string,
) => Promise<Record<string, unknown>>;

export class Checkpoints {
  private readonly store: JsonStore<Document>;
  private readonly listeners = new Set<(serverId: string) => void>();

  constructor(stateDir: string, onCorrupt?: (message: string) => void) {
    this.store = new JsonStore<Document>({
      path: join(stateDir, 'mcpl-state.json'),
      defaultValue: () => ({ version: 1, servers: {} }),
      validate: isDocument,
      indent: 0,
      onCorrupt: (report) =>
        onCorrupt?.(`${report.path} was ${report.reason}; kept aside as ${report.movedTo}`),
    });
  }

  async load(): Promise<void> {
    await this.store.load();
  }

  onChange(listener: (serverId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every feature set with state, per server. */
  all(): Record<string, Record<string, FeatureSetState>> {
    return this.store.value.servers;
  }

  of(serverId: string, featureSet: string): FeatureSetState | undefined {
    return this.store.value.servers[serverId]?.[featureSet];
  }

  /** §8.4: what the host sends with the next request of this set. */
  requestFields(serverId: string, featureSet: string): Record<string, unknown> {
    const set = this.of(serverId, featureSet);
    if (!set?.current) return {};
    const fields: Record<string, unknown> = { checkpoint: set.current };
    if (set.current in set.data) fields.state = set.data[set.current];
    return fields;
  }

  /**
   * Records a checkpoint from an answer's `state`. Returns a warning when the state could not be
   * reconstructed (the checkpoint is then kept as a reference only).
   */
  async record(
    serverId: string,
    featureSet: string,
    answer: StateAnswer,
    tool?: string,
  ): Promise<string | undefined> {
    let warning: string | undefined;
    await this.store.update((doc) => {
      const sets = (doc.servers[serverId] ??= {});
      const set = (sets[featureSet] ??= { checkpoints: [], data: {} });
      const result = nextData(set, answer);
      warning = result.warning;
      const node: CheckpointNode = {
        id: answer.checkpoint,
        parent: answer.parent,
        createdAt: new Date().toISOString(),
        tool,
        hasData: result.data !== undefined,
      };
      set.checkpoints = set.checkpoints.filter((c) => c.id !== node.id);
      set.checkpoints.push(node);
      if (result.data !== undefined) set.data[node.id] = result.data;
      else delete set.data[node.id];
      set.current = node.id;
      prune(set);
    });
    this.changed(serverId);
    return warning;
  }

  /**
   * §8.5–§8.7: asks the server to roll back, then moves the current checkpoint. An unknown checkpoint
   * fails with -32005 without asking; a server's -32005 forgets the checkpoint here too.
   */
  async rollback(
    serverId: string,
    featureSet: string,
    checkpoint: string,
    send: RollbackSender,
  ): Promise<{ success: boolean; reason?: string }> {
    const set = this.of(serverId, featureSet);
    if (!set?.checkpoints.some((c) => c.id === checkpoint))
      throw mcplError(
        McplErrorCodes.checkpointNotFound,
        `no checkpoint "${checkpoint}" of ${serverId} ${featureSet} is known`,
        { checkpoint },
      );
    let answer: Record<string, unknown>;
    try {
      answer = await send(serverId, featureSet, checkpoint);
    } catch (error) {
      if ((error as { code?: unknown }).code === McplErrorCodes.checkpointNotFound)
        await this.forget(serverId, featureSet, checkpoint);
      throw error;
    }
    if (answer.success !== true)
      return {
        success: false,
        reason: typeof answer.reason === 'string' ? answer.reason : 'the server did not roll back',
      };
    await this.store.update((doc) => {
      const target = doc.servers[serverId]?.[featureSet];
      if (target) target.current = checkpoint;
    });
    this.changed(serverId);
    return { success: true };
  }

  /** Drops a checkpoint the server no longer has; its children hang from its parent. */
  private async forget(serverId: string, featureSet: string, checkpoint: string): Promise<void> {
    await this.store.update((doc) => {
      const set = doc.servers[serverId]?.[featureSet];
      if (!set) return;
      const gone = set.checkpoints.find((c) => c.id === checkpoint);
      set.checkpoints = set.checkpoints
        .filter((c) => c.id !== checkpoint)
        .map((c) => (c.parent === checkpoint ? { ...c, parent: gone?.parent ?? null } : c));
      delete set.data[checkpoint];
      if (set.current === checkpoint) set.current = gone?.parent ?? undefined;
    });
    this.changed(serverId);
  }

  private changed(serverId: string): void {
    for (const listener of this.listeners) listener(serverId);
  }
}

function nextData(set: FeatureSetState, answer: StateAnswer): { data?: unknown; warning?: string } {
  let data: unknown;
  if (answer.data !== undefined) data = answer.data;
  else if (answer.patch) {
    const baseId = answer.parent ?? set.current;
    if (!baseId || !(baseId in set.data))
      return {
        warning: `a patch for checkpoint ${answer.checkpoint} arrived without the state of ${baseId ?? 'its parent'}: kept as a reference only`,
      };
    try {
      data = applyPatch(
        structuredClone(set.data[baseId]),
        answer.patch,
        true,
        true,
        true,
      ).newDocument;
    } catch (error) {
      return {
        warning: `the patch of checkpoint ${answer.checkpoint} does not apply (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): kept as a reference only`,
      };
    }
  } else return {};
  const size = JSON.stringify(data)?.length ?? 0;
  if (size > MAX_STATE_CHARS)
    return {
      warning: `the state at checkpoint ${answer.checkpoint} is ${size} characters, more than ${MAX_STATE_CHARS}: kept as a reference only`,
    };
  return { data };
}

function prune(set: FeatureSetState): void {
  while (set.checkpoints.length > MAX_CHECKPOINTS) {
    const index = set.checkpoints.findIndex((c) => c.id !== set.current);
    const [gone] = set.checkpoints.splice(index, 1);
    delete set.data[gone.id];
  }
}
