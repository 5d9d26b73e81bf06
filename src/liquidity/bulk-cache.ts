/**
 * The Enterprise bulk liquidity map (`GET /v1/liquidity/items` and its manifest), built off the
 * request path: once at start, then every `cadenceMs` (10 minutes, the spec's cadence). Each
 * build estimates every cs2 catalog item with the event loop free every few ms (`Slicer`),
 * encodes and hashes the map as it goes, and gzips it once on the thread pool
 * (src/domain/prepared-payload.ts). `version` is `<build start ms>-<build number>` and moves
 * only when the items changed; an unchanged rebuild keeps the previous payload (so a held copy
 * stays current and 304 keeps answering).
 */
import type { Book } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { iso, MINUTE, type Clock } from '../domain/clock.ts';
import type { CatalogItem } from '../domain/item.ts';
import {
  EncodedChunks,
  PayloadWriter,
  preparedText,
  type PreparedBytes,
} from '../domain/prepared-payload.ts';
import { Slicer } from '../domain/slicer.ts';
import { unrefTimers, type Timers } from '../domain/timers.ts';
import { liquidityFromBook } from './from-book.ts';
import { LIQUIDITY_MARKETS } from './markets.ts';
import { bulkEntry, type BulkLiquidityEntry } from './summary.ts';

export const BULK_CADENCE_MS = 10 * MINUTE;
export const BULK_CADENCE = 'PT10M';

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

/** `{"<name>":{…},…}`, encoded and hashed as it is written. */
async function itemsJson(
  items: readonly CatalogItem[],
  entryOf: (item: CatalogItem) => BulkLiquidityEntry,
  slicer: Slicer,
): Promise<EncodedChunks> {
  const encoded = new EncodedChunks();
  encoded.write('{');
  let first = true;
  for (const item of items) {
    const entry = `${JSON.stringify(item.marketHashName)}:${JSON.stringify(entryOf(item))}`;
    encoded.write(first ? entry : `,${entry}`);
    first = false;
    if (slicer.due()) await slicer.pause();
  }
  encoded.write('}');
  return encoded;
}

/** The manifest's fields, then `"items":` and the items' bytes, as one prepared body. */
async function itemsBody(manifest: string, items: EncodedChunks, slicer: Slicer, level?: number) {
  const writer = new PayloadWriter(level);
  writer.write(`${manifest.slice(0, -1)},"items":`);
  for (const chunk of items.chunks) {
    writer.writeBytes(chunk);
    if (slicer.due()) await slicer.pause();
  }
  writer.write('}');
  const { jsonBytes, gzip } = await writer.finish(slicer);
  return { jsonBytes, gzip };
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
    const slicer = new Slicer();
    const items = await itemsJson(catalog.items, entryOf, slicer);
    const hash = items.digest();
    if (this.snapshot && hash === this.itemsHash) return;
    this.builds += 1;
    const version = `${builtAt}-${this.builds}`;
    const manifest = JSON.stringify({
      version,
      calculatedAt: iso(builtAt),
      cadence: BULK_CADENCE,
      markets: markets,
      itemCount: catalog.items.length,
    });
    const level = this.options.gzipLevel;
    const snapshot: BulkLiquiditySnapshot = {
      version,
      etag: `"${version}"`,
      itemCount: catalog.items.length,
      builtAt,
      items: await itemsBody(manifest, items, slicer, level),
      manifest: await preparedText(manifest, level).then(({ jsonBytes, gzip }) => ({
        jsonBytes,
        gzip,
      })),
    };
    this.itemsHash = hash;
    this.snapshot = snapshot;
  }
}
