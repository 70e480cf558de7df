/**
 * Seeded pseudo-random numbers: every sampler, split and EM start takes a seed so the same file
 * gives the same numbers. xoshiro128** (Blackman & Vigna): fast, 32-bit state words, passes
 * BigCrush; seeded through splitmix32 so that nearby seeds give unrelated streams.
 */
export interface Rng {
  /** Uniform in [0, 1) with 32 bits of randomness. */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Standard normal N(0, 1) (Marsaglia polar method). */
  normal(): number;
  /** Fisher–Yates shuffle in place; returns the array. */
  shuffle<T>(items: T[]): T[];
  /** Index drawn from unnormalised non-negative weights. */
  categorical(weights: ArrayLike<number>, total?: number): number;
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRng(seed: number): Rng {
  const init = splitmix32(Math.floor(seed) ^ 0x5bd1e995);
  let a = init(),
    b = init(),
    c = init(),
    d = init();
  if ((a | b | c | d) === 0) a = 1;
  const nextUint32 = (): number => {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  };
  let spareNormal: number | undefined;
  const rng: Rng = {
    next: () => nextUint32() / 4294967296,
    int: (n) => Math.floor(rng.next() * n),
    normal: () => {
      if (spareNormal !== undefined) {
        const v = spareNormal;
        spareNormal = undefined;
        return v;
      }
      let u: number, v: number, s: number;
      do {
        u = 2 * rng.next() - 1;
        v = 2 * rng.next() - 1;
        s = u * u + v * v;
      } while (s >= 1 || s === 0);
      const m = Math.sqrt((-2 * Math.log(s)) / s);
      spareNormal = v * m;
      return u * m;
    },
    shuffle: (items) => {
      for (let i = items.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        const tmp = items[i]!;
        items[i] = items[j]!;
        items[j] = tmp;
      }
      return items;
    },
    categorical: (weights, total) => {
      let sum = total ?? 0;
      if (total === undefined) for (let i = 0; i < weights.length; i++) sum += weights[i]!;
      let u = rng.next() * sum;
      for (let i = 0; i < weights.length; i++) {
        u -= weights[i]!;
        if (u < 0) return i;
      }
      for (let i = weights.length - 1; i >= 0; i--) if (weights[i]! > 0) return i; // rounding at the top end
      return weights.length - 1;
    },
  };
  return rng;
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
