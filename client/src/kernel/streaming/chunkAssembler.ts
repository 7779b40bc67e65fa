/**
 * Puts MGP stream chunks (§12.4) back in order: chunks carry an `index`; they may arrive out of order
 * or twice. The assembled text is the chunks from 0 up to the first missing index; later ones wait.
 */
export interface ChunkContent {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface AcceptedChunk {
  /** Text that became contiguous with this chunk (possibly several chunks' worth, or none). */
  appended: string;
  duplicate: boolean;
  outOfOrder: boolean;
}

export class ChunkAssembler {
  private readonly waiting = new Map<number, ChunkContent>();
  private readonly parts: string[] = [];
  private next = 0;
  private lastIndex: number | undefined;
  duplicates = 0;
  outOfOrder = 0;
  received = 0;
  /** Non-text chunks (images, resources), in index order. */
  readonly other: ChunkContent[] = [];

  accept(index: number, content: ChunkContent, done: boolean): AcceptedChunk {
    if (!Number.isInteger(index) || index < 0)
      throw new RangeError(`chunk index ${String(index)} is not a non-negative integer`);
    if (done) this.lastIndex = index;
    if (index < this.next || this.waiting.has(index)) {
      this.duplicates++;
      return { appended: '', duplicate: true, outOfOrder: false };
    }
    this.received++;
    const outOfOrder = index !== this.next;
    if (outOfOrder) this.outOfOrder++;
    this.waiting.set(index, content);
    let appended = '';
    while (this.waiting.has(this.next)) {
      const chunk = this.waiting.get(this.next) as ChunkContent;
      this.waiting.delete(this.next);
      if (chunk.type === 'text' && typeof chunk.text === 'string') {
        this.parts.push(chunk.text);
        appended += chunk.text;
      } else {
        this.other.push(chunk);
      }
      this.next++;
    }
    return { appended, duplicate: false, outOfOrder };
  }

  get text(): string {
    return this.parts.join('');
  }

  /** Chunks received so far in order (0 … next-1). */
  get contiguous(): number {
    return this.next;
  }

  /** Whether every chunk up to the one marked `done` has arrived. */
  get complete(): boolean {
    return this.lastIndex !== undefined && this.next > this.lastIndex;
  }

  /** Indexes still missing below the highest one seen. */
  get gaps(): number[] {
    const highest = Math.max(this.next - 1, ...this.waiting.keys());
    const missing: number[] = [];
    for (let i = this.next; i < highest; i++) if (!this.waiting.has(i)) missing.push(i);
    return missing;
  }
}
