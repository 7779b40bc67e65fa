/**
 * The two PRNGs the MCP draft names (§2, `prng: 'lcg' | 'xoroshiro'`), over 32-bit state so that the
 * same seed gives the same numbers on every machine: a linear congruential generator (the constants
 * of Numerical Recipes) and xoroshiro64** (Blackman and Vigna), seeded through splitmix32.
 */
export type PrngName = 'lcg' | 'xoroshiro';

export interface Prng {
  /** A number in [0, 1). */
  next(): number;
}

/** A seed of any safe integer, as 32 bits. */
function seed32(seed: number): number {
  return Number(BigInt.asUintN(32, BigInt(seed)));
}

function lcg(seed: number): Prng {
  let state = seed32(seed);
  return {
    next() {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    },
  };
}

function splitmix32(seed: number): () => number {
  let state = seed32(seed);
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0;

function xoroshiro64starstar(seed: number): Prng {
  const init = splitmix32(seed);
  let s0 = init();
  let s1 = init();
  if (s0 === 0 && s1 === 0) s1 = 1;
  return {
    next() {
      const result = Math.imul(rotl(Math.imul(s0, 0x9e3779bb) >>> 0, 5), 5) >>> 0;
      s1 = (s1 ^ s0) >>> 0;
      s0 = (rotl(s0, 26) ^ s1 ^ (s1 << 9)) >>> 0;
      s1 = rotl(s1, 13);
      return result / 2 ** 32;
    },
  };
}

export function createPrng(name: PrngName, seed: number): Prng {
  return name === 'lcg' ? lcg(seed) : xoroshiro64starstar(seed);
}
