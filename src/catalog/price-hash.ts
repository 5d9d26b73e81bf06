/**
 * Deterministic pseudo-randomness for the simulator's reference data: a stable hash of a
 * string mapped to [0, 1), and helpers to turn it into prices and popularity. No Math.random.
 */

/** FNV-1a (32-bit) of the UTF-16 code units, scaled to [0, 1). */
export function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return (hash >>> 0) / 0x1_0000_0000;
}

/** A value between `low` and `high` spread evenly on a log scale by `unit` in [0, 1). */
export function logBetween(unit: number, low: number, high: number): number {
  return low * Math.pow(high / low, unit);
}

export function toCents(value: number, floor = 3): number {
  return Math.max(floor, Math.round(value));
}

export function toPopularity(value: number): number {
  const clamped = Math.min(1, Math.max(0.001, value));
  return Math.round(clamped * 1000) / 1000;
}
