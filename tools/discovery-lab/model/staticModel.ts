/**
 * Static word embeddings (model2vec-style): a table of int8 word vectors distilled from a sentence
 * encoder (tools/discovery-lab/build-model.mjs). A text's vector is the normalised sum of its words'
 * rows, each row carrying its word's weight (rarer words weigh more). A word the table lacks is cut
 * into the encoder's SentencePiece pieces (the most probable segmentation) and their rows summed.
 * One lookup per word: microseconds per text, no network, no native code.
 *
 * The file: a little-endian u32 header length, the JSON header (padded to 4 bytes), one float32
 * scale per row, then the rows as int8. Words are keyed by their stems (text.ts), pieces as the
 * encoder writes them (`▁` marks a word's start).
 */
import { isStopWord, splitWords, stem } from '../../../client/src/kernel/search/text';

interface Header {
  format: string;
  teacher: string;
  dims: number;
  /** Stems, space-separated, in row order. */
  words: string;
  /** Pieces, space-separated, in row order after the words. */
  pieces: string;
  pieceScores: number[];
}

export const MODEL_FORMAT = 'mgp-static-embeddings/1';

export class StaticEmbeddings {
  readonly dims: number;
  /** What the table was distilled from. */
  readonly teacher: string;
  private readonly rowOf = new Map<string, number>();
  private readonly pieceRow = new Map<string, number>();
  private readonly pieceScore = new Map<string, number>();
  private readonly longestPiece: number;
  private readonly scales: Float32Array;
  private readonly rows: Int8Array;
  /** Rows of words the table lacks, by word (their piece sums), bounded. */
  private readonly composed = new Map<string, Float32Array | null>();

  private constructor(header: Header, scales: Float32Array, rows: Int8Array) {
    this.dims = header.dims;
    this.teacher = header.teacher;
    this.scales = scales;
    this.rows = rows;
    const words = header.words ? header.words.split(' ') : [];
    words.forEach((w, i) => this.rowOf.set(w, i));
    const pieces = header.pieces ? header.pieces.split(' ') : [];
    pieces.forEach((p, i) => {
      this.pieceRow.set(p, words.length + i);
      this.pieceScore.set(p, header.pieceScores[i]);
    });
    this.longestPiece = pieces.reduce((n, p) => Math.max(n, p.length), 1);
  }

  /** Reads a model file; throws on anything that is not one. */
  static fromBytes(bytes: Uint8Array): StaticEmbeddings {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength < 8) throw new Error('not a static embeddings model: too short');
    const headerLength = view.getUint32(0, true);
    if (headerLength > bytes.byteLength - 4)
      throw new Error('not a static embeddings model: bad header length');
    const header = JSON.parse(
      new TextDecoder().decode(bytes.subarray(4, 4 + headerLength)),
    ) as Header;
    if (header.format !== MODEL_FORMAT)
      throw new Error(`unknown model format ${String(header.format)}`);
    const count =
      (header.words ? header.words.split(' ').length : 0) +
      (header.pieces ? header.pieces.split(' ').length : 0);
    const start = 4 + headerLength + ((4 - ((4 + headerLength) % 4)) % 4);
    const rowsStart = start + count * 4;
    if (rowsStart + count * header.dims !== bytes.byteLength)
      throw new Error('not a static embeddings model: size does not match its header');
    // Copied (a Buffer's slice is a view of a shared pool) so that the arrays start aligned.
    const copy = (from: number, to?: number) => new Uint8Array(bytes.subarray(from, to)).buffer;
    const scales = new Float32Array(copy(start, rowsStart));
    const rows = new Int8Array(copy(rowsStart));
    return new StaticEmbeddings(header, scales, rows);
  }

  /** Adds the weighted row of each word of the text to `into` (not normalised); returns how many words counted. */
  addText(text: string, into: Float32Array, weight = 1): number {
    let counted = 0;
    for (const word of splitWords(text)) {
      if (word.length < 2 || isStopWord(word)) continue;
      if (this.addWord(word, into, weight)) counted++;
    }
    return counted;
  }

  /** The unit vector of a text (all zeros when no word of it is known). */
  embed(text: string): Float32Array {
    const v = new Float32Array(this.dims);
    this.addText(text, v);
    return normalize(v);
  }

  private addWord(word: string, into: Float32Array, weight: number): boolean {
    const row = this.rowOf.get(stem(word));
    if (row !== undefined) {
      this.addRow(row, into, weight);
      return true;
    }
    const composed = this.compose(word);
    if (!composed) return false;
    for (let i = 0; i < this.dims; i++) into[i] += weight * composed[i];
    return true;
  }

  private addRow(row: number, into: Float32Array, weight: number): void {
    const scale = this.scales[row] * weight;
    const at = row * this.dims;
    const rows = this.rows;
    for (let i = 0; i < this.dims; i++) into[i] += scale * rows[at + i];
  }

  /** The sum of the rows of a word's most probable segmentation into pieces, memoised. */
  private compose(word: string): Float32Array | null {
    const known = this.composed.get(word);
    if (known !== undefined) return known;
    const pieces = this.segment(word);
    let sum: Float32Array | null = null;
    if (pieces) {
      sum = new Float32Array(this.dims);
      for (const p of pieces) this.addRow(this.pieceRow.get(p) as number, sum, 1 / pieces.length);
    }
    if (this.composed.size >= 20_000) this.composed.clear();
    this.composed.set(word, sum);
    return sum;
  }

  /** The unigram model's best segmentation of `▁word` (Viterbi), or undefined when none covers it. */
  private segment(word: string): string[] | undefined {
    const s = `▁${word}`;
    const best = new Float64Array(s.length + 1).fill(-Infinity);
    const from = new Int32Array(s.length + 1).fill(-1);
    best[0] = 0;
    for (let end = 1; end <= s.length; end++)
      for (let start = Math.max(0, end - this.longestPiece); start < end; start++) {
        if (best[start] === -Infinity) continue;
        const score = this.pieceScore.get(s.slice(start, end));
        if (score !== undefined && best[start] + score > best[end]) {
          best[end] = best[start] + score;
          from[end] = start;
        }
      }
    if (best[s.length] === -Infinity) return undefined;
    const pieces: string[] = [];
    for (let end = s.length; end > 0; end = from[end]) pieces.unshift(s.slice(from[end], end));
    return pieces;
  }
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
  if (norm > 0) {
    const inverse = 1 / Math.sqrt(norm);
    for (let i = 0; i < v.length; i++) v[i] *= inverse;
  }
  return v;
}
