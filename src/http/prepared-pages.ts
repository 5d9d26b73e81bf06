/**
 * Prepared pages of a whole-catalog read that takes parameters (the attribute snapshot pages):
 * each distinct page is built (in slices, by the caller's builder) at most once per
 * `minIntervalMs` while its source keeps changing, and not again while the source is unchanged;
 * readers of a page being built share that build. Pages are kept newest-used first up to
 * `maxBytes` of gzip, so a crawl of many cursors cannot grow the heap.
 */
import type { Clock } from '../domain/clock.ts';
import type { PreparedPayload } from '../domain/prepared-payload.ts';

export interface PreparedPagesOptions {
  clock: Clock;
  /** The source's version: a page built at the current version is current whatever its age. */
  version: () => number;
  minIntervalMs: number;
  maxBytes: number;
}

interface Held {
  version: number;
  page: Promise<PreparedPayload>;
  /** null while the page is building. */
  builtAt: number | null;
  bytes: number;
}

const sizeOf = (page: PreparedPayload) => page.gzip.length;

export class PreparedPages {
  /** Insertion order is use order: the first entry is the least recently used. */
  private readonly held = new Map<string, Held>();
  private bytes = 0;

  constructor(private readonly options: PreparedPagesOptions) {}

  /** The page under `key`, from `build` when none is current. */
  page(key: string, build: () => Promise<PreparedPayload>): Promise<PreparedPayload> {
    const held = this.held.get(key);
    if (held && this.current(held)) {
      this.held.delete(key);
      this.held.set(key, held);
      return held.page;
    }
    return this.start(key, build);
  }

  private current(held: Held): boolean {
    if (held.version === this.options.version()) return true;
    if (held.builtAt === null) return true;
    return this.options.clock.now() - held.builtAt < this.options.minIntervalMs;
  }

  private start(key: string, build: () => Promise<PreparedPayload>): Promise<PreparedPayload> {
    this.drop(key);
    const entry: Held = { version: this.options.version(), page: build(), builtAt: null, bytes: 0 };
    this.held.set(key, entry);
    entry.page.then(
      (page) => {
        if (this.held.get(key) !== entry) return;
        entry.bytes = sizeOf(page);
        entry.builtAt = page.builtAt;
        this.bytes += entry.bytes;
        this.evict();
      },
      () => {
        if (this.held.get(key) === entry) this.held.delete(key);
      },
    );
    return entry.page;
  }

  private drop(key: string): void {
    const held = this.held.get(key);
    if (!held) return;
    this.bytes -= held.bytes;
    this.held.delete(key);
  }

  private evict(): void {
    for (const [key, held] of this.held) {
      if (this.bytes <= this.options.maxBytes) return;
      if (held.builtAt !== null) this.drop(key);
    }
  }
}
