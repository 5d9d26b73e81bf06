/**
 * Deterministic randomness for the simulator: integer hashing of keys (no state, so any value
 * can be recomputed for any time), uniforms, smooth value noise over time, Poisson counts.
 */

/** FNV-1a of a string, 32-bit unsigned. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function finalize(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Mixes a key with one integer (any safe integer; the high part is folded in). */
export function mix(key: number, value: number): number {
  const high = Math.floor(value / 4294967296);
  const folded = (value | 0) ^ Math.imul(high | 0, 0x27d4eb2f);
  return finalize((key ^ finalize(folded + 0x9e3779b9)) + 0x632be5ab);
}

export function mix3(key: number, a: number, b: number): number {
  return mix(mix(key, a), b);
}

/** A uniform in [0, 1) from a hash. */
export function unit(hash: number): number {
  return hash / 4294967296;
}

/** A uniform in [0, 1) for `key` and one integer. */
export function uniform(key: number, value: number): number {
  return unit(mix(key, value));
}

/** Smooth noise in [-1, 1] over time: random knots every `periodMs`, smoothstep between them. */
export function valueNoise(key: number, timeMs: number, periodMs: number): number {
  const x = timeMs / periodMs;
  const knot = Math.floor(x);
  const fraction = x - knot;
  const smooth = fraction * fraction * (3 - 2 * fraction);
  const left = unit(mix(key, knot)) * 2 - 1;
  const right = unit(mix(key, knot + 1)) * 2 - 1;
  return left + (right - left) * smooth;
}

/** A Poisson count with mean `lambda` from one uniform (inverse transform; lambda stays small). */
export function poisson(lambda: number, u: number): number {
  if (lambda <= 0) return 0;
  let probability = Math.exp(-lambda);
  let cumulative = probability;
  let count = 0;
  while (u > cumulative && count < 1000) {
    count += 1;
    probability *= lambda / count;
    cumulative += probability;
  }
  return count;
}

/** A seed given as a number or a string, as a 32-bit key. */
export function seedKey(seed: number | string): number {
  return typeof seed === 'number' ? mix(0x5eed, seed) : hashString(seed);
}
