/**
 * The `memory.facts` feature set: a notebook of facts whose every change is a checkpoint (MCPL §8).
 * The first answer carries the whole state (`data`), later ones a JSON Patch from their parent
 * (§8.3). A request that carries a checkpoint this process does not know, with the host's `state`,
 * continues from that state (§8.4): the notebook survives a restart of the server when the host
 * keeps it. `state/rollback` moves back to any checkpoint still kept (§8.5–§8.7).
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { isRecord, Json } from './wire';

export const CHECKPOINT_NOT_FOUND = -32005;
/** Checkpoints kept; older ones are pruned (§8.7: the server decides its retention). */
export const KEPT_CHECKPOINTS = 100;

interface Notebook {
  facts: string[];
}

export interface StateField {
  checkpoint: string;
  parent: string | null;
  data?: Notebook;
  patch?: Json[];
}

export class Notebooks {
  private readonly kept = new Map<string, Notebook>();
  private current: string | null = null;
  private next = 1;

  /** The notebook a request works on: its checkpoint's, or the host's state for it. */
  private base(params: Json): { id: string | null; notebook: Notebook } {
    const asked = typeof params.checkpoint === 'string' ? params.checkpoint : undefined;
    if (asked && this.kept.has(asked)) return { id: asked, notebook: this.kept.get(asked)! };
    const state = params.state;
    if (asked && isRecord(state) && Array.isArray(state.facts)) {
      const notebook = { facts: state.facts.filter((f): f is string => typeof f === 'string') };
      this.kept.set(asked, notebook);
      // Checkpoints this process makes come after the ones the host already holds.
      const number = /^chk_(\d+)$/.exec(asked)?.[1];
      if (number) this.next = Math.max(this.next, Number(number) + 1);
      return { id: asked, notebook };
    }
    const id = asked ?? this.current;
    return { id, notebook: (id && this.kept.get(id)) || { facts: [] } };
  }

  facts(params: Json): string[] {
    return this.base(params).notebook.facts;
  }

  /** Adds a fact; the answer's `state` (§8.2). */
  add(params: Json, fact: string): StateField {
    const { id, notebook } = this.base(params);
    const facts = [...notebook.facts, fact];
    return this.commit(id, { facts }, [{ op: 'add', path: '/facts/-', value: fact }]);
  }

  /** Removes a fact; undefined when the notebook does not hold it. */
  remove(params: Json, fact: string): StateField | undefined {
    const { id, notebook } = this.base(params);
    const at = notebook.facts.indexOf(fact);
    if (at === -1) return undefined;
    const facts = notebook.facts.filter((_, i) => i !== at);
    return this.commit(id, { facts }, [{ op: 'remove', path: `/facts/${at}` }]);
  }

  private commit(parent: string | null, notebook: Notebook, patch: Json[]): StateField {
    const checkpoint = `chk_${String(this.next++).padStart(3, '0')}`;
    this.kept.set(checkpoint, notebook);
    this.current = checkpoint;
    while (this.kept.size > KEPT_CHECKPOINTS) this.kept.delete(this.kept.keys().next().value!);
    return parent && this.kept.has(parent)
      ? { checkpoint, parent, patch }
      : { checkpoint, parent, data: notebook };
  }

  /** §8.5, §8.6; an unknown checkpoint is -32005 (§8.7). */
  rollback(checkpoint: string): Json {
    if (!this.kept.has(checkpoint))
      throw new McpError(CHECKPOINT_NOT_FOUND, 'Checkpoint not found', { checkpoint });
    this.current = checkpoint;
    console.error(`mcpl-example-server: rolled back to ${checkpoint}`);
    return { checkpoint, success: true };
  }

  /** The facts at the current checkpoint, for the context hook. */
  currentFacts(): string[] {
    return (this.current && this.kept.get(this.current)?.facts) || [];
  }
}
