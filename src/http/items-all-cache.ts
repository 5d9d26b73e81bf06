/**
 * The `/v1/items/all` payload, built at most once per book change: rows from the pure builder,
 * `JSON.stringify` once, gzip once (level 6 by default), ETag = hash of the JSON. Book changes
 * are debounced so a rebuild starts no sooner than `minIntervalMs` after the previous one.
 * Requests only ever read the last finished payload.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { Book } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Clock } from '../domain/clock.ts';
import type { CatalogItem } from '../domain/item.ts';
import { ITEMS_ALL_MAX_ROWS, itemsAllRows } from '../pricing/items-all.ts';
import type { ItemsAllProvider, PreparedPayload } from './deps.ts';

const gzip = promisify(gzipCallback);

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ItemsAllCacheOptions {
  book: Book;
  catalog: Catalog;
  clock: Clock;
  minIntervalMs?: number;
  gzipLevel?: number;
  timers?: Timers;
  onError?: (error: unknown) => void;
}

export function preparePayload(
  rows: unknown[],
  builtAt: number,
  level = 6,
): Promise<PreparedPayload> {
  return prepareJsonPayload(Buffer.from(JSON.stringify(rows)), rows.length, builtAt, level);
}

async function prepareJsonPayload(
  json: Buffer,
  rowCount: number,
  builtAt: number,
  level: number,
): Promise<PreparedPayload> {
  const hash = createHash('sha256').update(json).digest('base64url').slice(0, 27);
  return { etag: `"${hash}"`, json, gzip: await gzip(json, { level }), rowCount, builtAt };
}

export class ItemsAllCache implements ItemsAllProvider {
  private payload: PreparedPayload | null = null;
  private timer: unknown = null;
  private building: Promise<void> | null = null;
  private dirty = false;
  private lastStart = Number.NEGATIVE_INFINITY;
  private started = 0;
  private published = 0;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: ItemsAllCacheOptions) {
    this.unsubscribe = options.book.onChange((change) => {
      if (change.game === options.catalog.game) this.markDirty();
    });
  }

  current(): PreparedPayload | null {
    return this.payload;
  }

  /** Builds now (waits for a running build first). */
  async rebuild(): Promise<void> {
    if (this.building) await this.building;
    this.building = this.build().finally(() => {
      this.building = null;
    });
    return this.building;
  }

  /** Resolves when no build is running (for tests and shutdown). */
  async settled(): Promise<void> {
    while (this.building) await this.building;
  }

  /** Schedules a rebuild, at most one per `minIntervalMs`. */
  markDirty(): void {
    this.dirty = true;
    if (this.timer !== null) return;
    const interval = this.options.minIntervalMs ?? 5_000;
    const wait = Math.max(0, this.lastStart + interval - this.options.clock.now());
    const timers = this.options.timers ?? realTimers;
    this.timer = timers.set(() => {
      this.timer = null;
      this.rebuild().catch((error: unknown) => this.options.onError?.(error));
    }, wait);
  }

  close(): void {
    this.unsubscribe();
    if (this.timer !== null) (this.options.timers ?? realTimers).clear(this.timer);
    this.timer = null;
  }

  private async build(): Promise<void> {
    const { book, catalog, clock } = this.options;
    this.dirty = false;
    this.lastStart = clock.now();
    const sequence = (this.started += 1);
    const { json, rowCount } = await serializeInSlices(catalog.items, (slice) =>
      itemsAllRows(slice, (id) => book.sides(catalog.game, id)),
    );
    const payload = await prepareJsonPayload(
      json,
      rowCount,
      this.lastStart,
      this.options.gzipLevel ?? 6,
    );
    if (sequence > this.published) {
      this.published = sequence;
      this.payload = payload;
    }
    if (this.dirty) this.markDirty();
  }
}

const SLICE_ITEMS = 1_000;

/**
 * Builds and stringifies the rows a slice at a time, yielding to the event loop between
 * slices, so a whole-catalog rebuild never holds up requests for more than a few ms.
 */
async function serializeInSlices(
  items: readonly CatalogItem[],
  rowsOf: (slice: readonly CatalogItem[]) => unknown[],
): Promise<{ json: Buffer; rowCount: number }> {
  const parts: string[] = [];
  let rowCount = 0;
  const limited = items.slice(0, ITEMS_ALL_MAX_ROWS);
  for (let start = 0; start < limited.length; start += SLICE_ITEMS) {
    const rows = rowsOf(limited.slice(start, start + SLICE_ITEMS));
    rowCount += rows.length;
    if (rows.length > 0) parts.push(JSON.stringify(rows).slice(1, -1));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return { json: Buffer.from(`[${parts.join(',')}]`), rowCount };
}
