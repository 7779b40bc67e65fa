/**
 * A stream's text in the DOM, appended without re-rendering and capped for huge outputs. The text is
 * split into block segments of about `segmentChars`, each one text node: an append touches only the last
 * segment (the browser lays out that block alone), old segments are dropped from the front past the
 * cap, and segments out of view skip rendering (CSS content-visibility). Segments end after a
 * newline; a long run of text without one is cut at a space now and then (a block boundary there shows
 * as an early line wrap).
 */

/**
 * How to split `text` appended to a segment holding `current` characters: piece 0 goes to that segment,
 * each next piece starts a new one. A segment past `segmentChars` ends after a newline (looked for up
 * to twice that size); without one it grows until `maxChars`, then ends after its last space (else hard).
 */
export function splitForSegments(
  current: number,
  text: string,
  segmentChars: number,
  maxChars = segmentChars * 8,
): string[] {
  const pieces: string[] = [];
  let length = current;
  let rest = text;
  while (length + rest.length > segmentChars) {
    const from = Math.max(0, Math.floor(segmentChars / 2) - length);
    const newlineTo = Math.min(rest.length, 2 * segmentChars - length);
    const newline = newlineTo > 0 ? rest.lastIndexOf('\n', newlineTo - 1) : -1;
    let cut: number;
    if (newline >= from) cut = newline + 1;
    else if (length + rest.length <= maxChars)
      break; // no newline yet: wait for one
    else {
      const to = maxChars - length;
      if (to <= 0) {
        pieces.push('');
        length = 0;
        continue;
      }
      const space = rest.lastIndexOf(' ', to - 1);
      cut = space >= 0 ? space + 1 : to;
    }
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
    length = 0;
  }
  pieces.push(rest);
  return pieces;
}

/** How many leading segments to drop so that what stays is at most `cap` (always keeping the last). */
export function segmentsToDrop(lengths: readonly number[], cap: number): number {
  let total = lengths.reduce((a, b) => a + b, 0);
  let drop = 0;
  while (total > cap && drop < lengths.length - 1) {
    total -= lengths[drop];
    drop += 1;
  }
  return drop;
}

export class TailOutput {
  private readonly segments: { node: HTMLElement; text: Text }[] = [];
  private shown = 0;
  /** Characters no longer in the DOM (dropped past the cap, or never sent: the host keeps a tail too). */
  dropped = 0;

  constructor(
    readonly element: HTMLElement,
    private readonly cap: number,
    private readonly segmentChars = 2048,
    private readonly maxChars = segmentChars * 8,
  ) {}

  get shownChars(): number {
    return this.shown;
  }

  append(text: string): void {
    if (!text) return;
    const last = this.segments[this.segments.length - 1];
    const pieces = splitForSegments(
      last ? last.text.length : 0,
      text,
      this.segmentChars,
      this.maxChars,
    );
    const fragment = document.createDocumentFragment();
    pieces.forEach((piece, index) => {
      if (index === 0 && last) {
        if (piece) last.text.appendData(piece);
        return;
      }
      if (!piece && index !== pieces.length - 1) return;
      const node = document.createElement('div');
      node.className = 'seg';
      const textNode = document.createTextNode(piece);
      node.append(textNode);
      this.segments.push({ node, text: textNode });
      fragment.append(node);
    });
    this.element.append(fragment);
    this.shown += text.length;
    this.trim();
  }

  private trim(): void {
    if (this.shown <= this.cap) return;
    const drop = segmentsToDrop(
      this.segments.map((s) => s.text.length),
      this.cap,
    );
    for (const segment of this.segments.splice(0, drop)) {
      segment.node.remove();
      this.shown -= segment.text.length;
      this.dropped += segment.text.length;
    }
  }
}

/**
 * Chunks per second, from (time, chunk count) samples, over the last `windowMs` or, for a stream slower
 * than that (a chunk every few seconds), over twice its last interval: the rate shows while text
 * arrives, and falls to zero once the stream has been quiet for the window.
 */
export class RateMeter {
  private samples: { at: number; chunks: number }[] = [];

  constructor(
    private readonly windowMs = 1000,
    private readonly keep = 256,
  ) {}

  add(at: number, chunks: number): void {
    this.samples.push({ at, chunks });
    if (this.samples.length > this.keep) this.samples = this.samples.slice(-this.keep);
  }

  rate(now: number): number {
    const count = this.samples.length;
    if (count < 2) return 0;
    const last = this.samples[count - 1];
    const window = Math.max(this.windowMs, 2 * (last.at - this.samples[count - 2].at));
    const start = now - window;
    let base: { at: number; chunks: number } | undefined;
    for (const sample of this.samples) if (sample.at <= start) base = sample;
    const span = base ? window : now - this.samples[0].at;
    return ((last.chunks - (base ?? this.samples[0]).chunks) * 1000) / Math.max(span, 100);
  }
}
