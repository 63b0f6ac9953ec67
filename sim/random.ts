// One seeded generator per run, with named streams forked from it so that adding a consumer
// does not shift the draws of the others.
import type { Random } from '../actors/api/env.ts';

/** A 32-bit string hash (FNV-1a), to derive a stream's seed from its name. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** sfc32: small, fast, and good enough for simulation (not for cryptography). */
export function seededRandom(seed: number | string): Random {
  const base = typeof seed === 'number' ? seed >>> 0 : hash32(seed);
  let a = 0x9e3779b9, b = 0x243f6a88, c = 0xb7e15162, d = base;
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next(); // mix the seed in
  return { next, fork: (name) => seededRandom(`${base}/${name}`) };
}
