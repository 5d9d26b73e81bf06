/**
 * The `/v1/items/all` payload, built incrementally and at most once per `minIntervalMs` after
 * the book changes: each item's row is serialized once and kept (as UTF-8 bytes) until a book
 * change names the item, so a rebuild re-serializes only the items that changed since the last
 * one. The rows are copied into a `PayloadWriter` (hashed and gzipped in 64 KB chunks, the gzip
 * on the thread pool) with the event loop free every few ms (`Slicer`): no build holds the HTTP
 * thread longer than a slice. Requests only ever read the last finished payload.
 */
import type { Book } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Clock } from '../domain/clock.ts';
import { encodeText, PayloadWriter, type PreparedPayload } from '../domain/prepared-payload.ts';
import { Slicer } from '../domain/slicer.ts';
import { unrefTimers, type Timers } from '../domain/timers.ts';
import { ITEMS_ALL_MAX_ROWS, itemsAllRow } from '../pricing/items-all.ts';
import type { ItemsAllProvider } from './deps.ts';

export interface ItemsAllCacheOptions {
  book: Book;
  catalog: Catalog;
  clock: Clock;
  minIntervalMs?: number;
  gzipLevel?: number;
  timers?: Timers;
  onError?: (error: unknown) => void;
}

/** A finished payload of `rows` (tests and fixtures that need one without a book). */
export async function preparePayload(
  rows: unknown[],
  builtAt: number,
  level?: number,
): Promise<PreparedPayload> {
  const writer = new PayloadWriter(level);
  writer.write(JSON.stringify(rows));
  return { ...(await writer.finish()), rowCount: rows.length, builtAt };
}

export class ItemsAllCache implements ItemsAllProvider {
  private payload: PreparedPayload | null = null;
  /** Serialized rows by item id, as UTF-8; a book change drops the rows it names. */
  private readonly rows = new Map<string, Buffer>();
  private timer: unknown = null;
  private building: Promise<void> | null = null;
  private dirty = false;
  private lastStart = Number.NEGATIVE_INFINITY;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: ItemsAllCacheOptions) {
    this.unsubscribe = options.book.onChange((change) => {
      if (change.game !== options.catalog.game) return;
      for (const id of change.itemIds) this.rows.delete(id);
      this.markDirty();
    });
  }

  current(): PreparedPayload | null {
    return this.payload;
  }

  /** Builds now, after a running build (builds never overlap). */
  async rebuild(): Promise<void> {
    const previous = this.building;
    const run = (async () => {
      await previous?.catch(() => undefined);
      await this.build();
    })();
    this.building = run;
    try {
      await run;
    } finally {
      if (this.building === run) this.building = null;
    }
  }

  /** Resolves when no build is running (for tests and shutdown). */
  async settled(): Promise<void> {
    while (this.building) await this.building.catch(() => undefined);
  }

  /** Schedules a rebuild, at most one per `minIntervalMs`. */
  markDirty(): void {
    this.dirty = true;
    if (this.timer !== null) return;
    const interval = this.options.minIntervalMs ?? 5_000;
    const wait = Math.max(0, this.lastStart + interval - this.options.clock.now());
    this.timer = this.timers().set(() => {
      this.timer = null;
      this.rebuild().catch((error: unknown) => this.options.onError?.(error));
    }, wait);
  }

  close(): void {
    this.unsubscribe();
    if (this.timer !== null) this.timers().clear(this.timer);
    this.timer = null;
  }

  private timers(): Timers {
    return this.options.timers ?? unrefTimers;
  }

  private async build(): Promise<void> {
    this.dirty = false;
    this.lastStart = this.options.clock.now();
    const writer = new PayloadWriter(this.options.gzipLevel);
    const slicer = new Slicer();
    const rowCount = await this.writeRows(writer, slicer);
    this.payload = { ...(await writer.finish(slicer)), rowCount, builtAt: this.lastStart };
    if (this.dirty) this.markDirty();
  }

  /** The bare array, row by row in catalog order (cached rows as they are). */
  private async writeRows(writer: PayloadWriter, slicer: Slicer): Promise<number> {
    const { book, catalog } = this.options;
    let count = 0;
    writer.write('[');
    for (const item of catalog.items) {
      if (count >= ITEMS_ALL_MAX_ROWS) break;
      let row = this.rows.get(item.id);
      if (row === undefined) {
        row = encodeText(JSON.stringify(itemsAllRow(item, book.bestAsks(catalog.game, item.id))));
        this.rows.set(item.id, row);
      }
      if (count > 0) writer.write(',');
      writer.writeEncoded(row);
      count += 1;
      if (slicer.due()) await slicer.pause();
    }
    writer.write(']');
    return count;
  }
}
