/**
 * What was built for the keys read more than once lately, so a hot item reads back the same
 * objects (caches keyed by side object, like pricing's ISO times, keep hitting) without
 * building them again. A key read once (a scan over the whole book) is remembered by name
 * only and holds nothing, so scans neither evict hot items nor keep their objects alive.
 * Both sets are bounded: each is cleared when full.
 */
const SEEN_PER_HELD = 4;

export class RecentReads<T> {
  private readonly held = new Map<string, T>();
  private readonly seen = new Set<string>();

  constructor(private readonly limit: number) {}

  get(key: string): T | undefined {
    return this.held.get(key);
  }

  /** Holds `value` when `key` was read before since the last clear; true when it did. */
  offer(key: string, value: T): boolean {
    if (!this.seen.has(key)) {
      if (this.seen.size >= this.limit * SEEN_PER_HELD) this.seen.clear();
      this.seen.add(key);
      return false;
    }
    if (this.held.size >= this.limit) this.held.clear();
    this.held.set(key, value);
    return true;
  }

  drop(key: string): void {
    this.held.delete(key);
  }
}
