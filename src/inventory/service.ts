/**
 * Inventory fetches off the request path: `request` stores a PENDING snapshot and returns it at
 * once; the fetch then moves it to FETCHING, INSPECTING (advanced fetches) and COMPLETED, or to
 * FAILED with a sentence. Paint indexes embedded in inspect links are read on every fetch (they
 * tell Doppler phases apart before names resolve), the rest of the links' data on advanced ones.
 * Each account may start `fetchesPerHour` fetches in any hour. Valuations are priced when read
 * (valuation.ts); snapshots keep items only.
 */
import { randomUUID } from 'node:crypto';
import type { Catalog } from '../catalog/catalog.ts';
import { HOUR, iso, type Clock } from '../domain/clock.ts';
import { ApiError } from '../domain/errors.ts';
import type { Game } from '../domain/games.ts';
import {
  RUST_APP_ID,
  type InventoryItem,
  type InventoryRequest,
  type InventorySnapshot,
} from '../domain/inventory.ts';
import type { InventoryStore } from '../store/inventory-store.ts';
import { withInspectData, withInspectPaintIndex } from './inspect-link.ts';
import { resolveInventory } from './resolve.ts';
import { InventorySourceError } from './steam-page.ts';
import type { InventorySource } from './steam-source.ts';

export const DEFAULT_FETCHES_PER_HOUR = 30;

export interface InventoryServiceOptions {
  store: InventoryStore;
  source: InventorySource;
  catalogs: Readonly<Record<Game, Catalog>>;
  clock: Clock;
  fetchesPerHour?: number;
  onError?: (error: unknown) => void;
}

export const gameOfApp = (appId: number): Game => (appId === RUST_APP_ID ? 'rust' : 'cs2');

/**
 * Advanced fetches: float, seed, paint index and sticker details from what the inventory
 * carries (asset properties, data embedded in inspect links), for at most `max` items; an item
 * that gained a float or a seed counts as inspected.
 */
function inspect(items: readonly InventoryItem[], max: number, at: string) {
  let inspected = 0;
  const out = items.map((item) => {
    if (inspected >= max) return withInspectPaintIndex(item);
    const filled = withInspectData(item);
    if (filled.floatValue === undefined && filled.paintSeed === undefined) return filled;
    inspected += 1;
    return { ...filled, inspectedAt: at };
  });
  return { items: out, inspected };
}

export class InventoryService {
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly options: InventoryServiceOptions) {}

  /** `keyless`: started without an API key (the web terminal); see the source's budget. */
  async request(
    accountId: string,
    request: InventoryRequest,
    { keyless = false }: { keyless?: boolean } = {},
  ): Promise<InventorySnapshot> {
    const now = this.options.clock.now();
    const limit = this.options.fetchesPerHour ?? DEFAULT_FETCHES_PER_HOUR;
    if ((await this.options.store.countSince(accountId, now - HOUR)) >= limit) {
      throw new ApiError(429, 'RATE_LIMITED', `At most ${limit} inventory fetches per hour`, {
        'retry-after': 3600,
      });
    }
    const snapshot: InventorySnapshot = {
      ...request,
      id: randomUUID(),
      accountId,
      status: 'PENDING',
      createdAt: now,
      completedAt: null,
      itemCount: null,
      inspectedCount: null,
      unresolvedCount: null,
      error: null,
      items: null,
    };
    await this.options.store.create(snapshot);
    const work = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.run(snapshot, keyless))
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => this.running.delete(snapshot.id));
    this.running.set(snapshot.id, work);
    return snapshot;
  }

  /** Resolves when the snapshot's fetch has ended (at once when none is running). */
  settled(id: string): Promise<void> {
    return this.running.get(id) ?? Promise.resolve();
  }

  get(id: string) {
    return this.options.store.get(id);
  }

  history(steamId: string, limit: number, offset: number) {
    return this.options.store.history(steamId, limit, offset);
  }

  catalogFor(appId: number): Catalog {
    return this.options.catalogs[gameOfApp(appId)];
  }

  private async inspect(snapshot: InventorySnapshot, items: readonly InventoryItem[]) {
    await this.options.store.update(snapshot.id, { status: 'INSPECTING' });
    return inspect(items, snapshot.maxInspections, iso(this.options.clock.now()));
  }

  private async run(snapshot: InventorySnapshot, keyless: boolean): Promise<void> {
    const { store, source, clock } = this.options;
    await store.update(snapshot.id, { status: 'FETCHING' });
    try {
      const fetched = await source.fetchItems({
        steamId: snapshot.targetSteamId,
        appId: snapshot.appId,
        contextId: snapshot.contextId,
        keyless,
      });
      const wanted = snapshot.tradableOnly ? fetched.filter((item) => item.tradable) : fetched;
      const inspected = snapshot.maxInspections > 0 ? await this.inspect(snapshot, wanted) : null;
      const read = inspected?.items ?? wanted.map(withInspectPaintIndex);
      const { items, unresolvedCount } = resolveInventory(this.catalogFor(snapshot.appId), read);
      const inspectedCount = inspected?.inspected;
      await store.update(snapshot.id, {
        status: 'COMPLETED',
        completedAt: clock.now(),
        itemCount: items.length,
        unresolvedCount,
        items,
        ...(inspectedCount === undefined ? {} : { inspectedCount }),
      });
    } catch (error) {
      const message =
        error instanceof InventorySourceError ? error.message : 'The inventory could not be read.';
      if (!(error instanceof InventorySourceError)) this.options.onError?.(error);
      await store.update(snapshot.id, {
        status: 'FAILED',
        completedAt: clock.now(),
        error: message,
      });
    }
  }
}
