/**
 * The vector index's matrices and a search's scratch, in WebAssembly memory, and the dot products
 * over them (dot.wat, in SIMD: the coarse scores summed in float32, the full ones identical to the
 * plain loop's). Each region holds `capacity` slots; growing builds a new memory and copies the
 * matrices across.
 */
import { Buffer } from 'node:buffer';
import { DOT_WASM } from './dotWasm';

interface DotExports {
  coarseRows(query: number, rows: number, n: number, count: number, out: number): void;
  dotListed(
    query: number,
    rows: number,
    n: number,
    listed: number,
    count: number,
    out: number,
  ): void;
}

const PAGE = 65536;

/** Regions are aligned to 16 bytes, a SIMD load's width. */
const aligned = (bytes: number) => Math.ceil(bytes / 16) * 16;

export class DotKernel {
  readonly capacity: number;
  /** Every slot's full vector, `dims` numbers each. */
  readonly full: Float32Array;
  /** Every slot's leading `coarseDims` numbers. */
  readonly coarse: Float32Array;
  private readonly query: Float32Array;
  private readonly listed: Int32Array;
  private readonly out: Float64Array;
  private readonly exports: DotExports;

  constructor(
    private readonly module: WebAssembly.Module,
    readonly dims: number,
    readonly coarseDims: number,
    capacity: number,
  ) {
    this.capacity = capacity;
    const queryAt = 0;
    const listedAt = aligned(queryAt + dims * 4);
    const outAt = aligned(listedAt + capacity * 4);
    const coarseAt = aligned(outAt + capacity * 8);
    const fullAt = aligned(coarseAt + capacity * coarseDims * 4);
    const end = fullAt + capacity * dims * 4;
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(end / PAGE)) });
    const instance = new WebAssembly.Instance(module, { env: { memory } });
    this.exports = instance.exports as unknown as DotExports;
    const { buffer } = memory;
    this.query = new Float32Array(buffer, queryAt, dims);
    this.listed = new Int32Array(buffer, listedAt, capacity);
    this.out = new Float64Array(buffer, outAt, capacity);
    this.coarse = new Float32Array(buffer, coarseAt, capacity * coarseDims);
    this.full = new Float32Array(buffer, fullAt, capacity * dims);
  }

  /** A kernel of a new, empty memory: compiles the module (a few hundred bytes). */
  static create(dims: number, coarseDims: number, capacity: number): DotKernel {
    const module = new WebAssembly.Module(Buffer.from(DOT_WASM, 'base64'));
    return new DotKernel(module, dims, coarseDims, capacity);
  }

  /** A kernel of at least `capacity` slots holding this one's matrices. */
  grown(capacity: number): DotKernel {
    const next = new DotKernel(this.module, this.dims, this.coarseDims, capacity);
    next.full.set(this.full);
    next.coarse.set(this.coarse);
    return next;
  }

  /**
   * The query's similarity to slots 0 to `count - 1` on the coarse coordinates, summed in float32
   * (a view, valid until the next call).
   */
  coarseScores(query: Float32Array, count: number): Float64Array {
    this.query.set(query);
    const { query: q, coarse, out } = this;
    this.exports.coarseRows(
      q.byteOffset,
      coarse.byteOffset,
      this.coarseDims,
      count,
      out.byteOffset,
    );
    return out;
  }

  /** The query's similarity to each listed slot on every coordinate, in the list's order (a view, as above). */
  fullScores(query: Float32Array, slots: Int32Array): Float64Array {
    this.query.set(query);
    this.listed.set(slots);
    const { query: q, full, listed, out } = this;
    this.exports.dotListed(
      q.byteOffset,
      full.byteOffset,
      this.dims,
      listed.byteOffset,
      slots.length,
      out.byteOffset,
    );
    return out;
  }
}
