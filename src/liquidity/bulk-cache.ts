/**
 * The Enterprise bulk liquidity map (`GET /v1/liquidity/items` and its manifest), built off the
 * request path: once at start, then every `cadenceMs` (10 minutes, the spec's cadence). Each
 * build estimates every cs2 catalog item a slice at a time (yielding to the event loop between
 * slices), serializes the map and the manifest once and gzips them once. `version` is
 * `<build start ms>-<build number>` and moves only when the items changed; an unchanged
 * rebuild keeps the previous payload (so a held copy stays current and 304 keeps answering).
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { Book } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { iso, MINUTE, type Clock } from '../domain/clock.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { Timers } from '../http/items-all-cache.ts';
import { liquidityFromBook } from './from-book.ts';
import { LIQUIDITY_MARKETS } from './markets.ts';
import { bulkEntry, type BulkLiquidityEntry } from './summary.ts';

const gzip = promisify(gzipCallback);

export const BULK_CADENCE_MS = 10 * MINUTE;
export const BULK_CADENCE = 'PT10M';
const SLICE_ITEMS = 500;

export interface PreparedBytes {
  json: Buffer;
  gzip: Buffer;
}

export interface BulkLiquiditySnapshot {
  version: string;
  /** Quoted strong ETag: the version. */
  etag: string;
  itemCount: number;
  builtAt: number;
  items: PreparedBytes;
  manifest: PreparedBytes;
}

export interface BulkLiquidityProvider {
  /** null until the first build finished. */
  current(): BulkLiquiditySnapshot | null;
}

export interface BulkLiquidityOptions {
  book: Pick<Book, 'sides' | 'sales' | 'salesStats'>;
  catalog: Catalog;
  clock: Clock;
  cadenceMs?: number;
  gzipLevel?: number;
  timers?: Timers;
  onError?: (error: unknown) => void;
}

async function prepared(text: string, level: number): Promise<PreparedBytes> {
  const json = Buffer.from(text);
  return { json, gzip: await gzip(json, { level }) };
}

/** `{"<name>":{…},…}` built a slice at a time. */
async function itemsJson(
  items: readonly CatalogItem[],
  entryOf: (item: CatalogItem) => BulkLiquidityEntry,
): Promise<string> {
  const parts: string[] = [];
  for (let start = 0; start < items.length; start += SLICE_ITEMS) {
    for (const item of items.slice(start, start + SLICE_ITEMS)) {
      parts.push(`${JSON.stringify(item.marketHashName)}:${JSON.stringify(entryOf(item))}`);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return `{${parts.join(',')}}`;
}

export class BulkLiquidityCache implements BulkLiquidityProvider {
  private snapshot: BulkLiquiditySnapshot | null = null;
  private itemsHash = '';
  private builds = 0;
  private timer: unknown = null;
  private building: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly options: BulkLiquidityOptions) {}

  current(): BulkLiquiditySnapshot | null {
    return this.snapshot;
  }

  /** Builds now (after any running build), then keeps rebuilding every cadence. */
  async start(): Promise<void> {
    await this.rebuild();
    this.schedule();
  }

  async rebuild(): Promise<void> {
    if (this.building) await this.building;
    this.building = this.build().finally(() => {
      this.building = null;
    });
    return this.building;
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) this.timers().clear(this.timer);
    this.timer = null;
  }

  private timers(): Timers {
    return this.options.timers ?? unrefTimers;
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = this.timers().set(() => {
      this.timer = null;
      this.rebuild()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => this.schedule());
    }, this.options.cadenceMs ?? BULK_CADENCE_MS);
  }

  private async build(): Promise<void> {
    const { book, catalog, clock } = this.options;
    const builtAt = clock.now();
    const markets = LIQUIDITY_MARKETS[catalog.game];
    const entryOf = (item: CatalogItem) =>
      bulkEntry(liquidityFromBook(book, catalog.game, item, markets, null, builtAt));
    const items = await itemsJson(catalog.items, entryOf);
    const hash = createHash('sha256').update(items).digest('base64url');
    if (this.snapshot && hash === this.itemsHash) return;
    this.builds += 1;
    const version = `${builtAt}-${this.builds}`;
    const head = {
      version,
      calculatedAt: iso(builtAt),
      cadence: BULK_CADENCE,
      markets: markets,
      itemCount: catalog.items.length,
    };
    const level = this.options.gzipLevel ?? 6;
    const manifestText = JSON.stringify(head);
    const snapshot: BulkLiquiditySnapshot = {
      version,
      etag: `"${version}"`,
      itemCount: catalog.items.length,
      builtAt,
      items: await prepared(`${manifestText.slice(0, -1)},"items":${items}}`, level),
      manifest: await prepared(manifestText, level),
    };
    this.itemsHash = hash;
    this.snapshot = snapshot;
  }
}

const unrefTimers: Timers = {
  set: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
