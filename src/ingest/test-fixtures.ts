/**
 * Test doubles for the ingest tests: a tiny catalog, a scripted adapter, a recording store,
 * manual timers and a capturing logger. Not used outside tests.
 */
import type { Catalog } from '../catalog/catalog.ts';
import type { Game } from '../domain/games.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import type { BookObservation, Observation } from '../domain/observation.ts';
import type { FetchRecord, IngestBatch } from '../domain/quote.ts';
import type {
  FetchContext,
  MarketAdapter,
  MarketInfo,
  ParseResult,
} from '../markets/market-adapter.ts';
import type { BatchWriteCounts, WriteFence } from '../store/price-store.ts';
import type { FxTable } from './fx.ts';
import type { Timers } from './schedule.ts';

export const TEST_FX: FxTable = {
  asOf: Date.parse('2026-10-01T00:00:00Z'),
  source: 'test',
  usdMicroPerUnit: { USD: 1_000_000, EUR: 1_080_000, CNY: 140_000, RUB: 11_000 },
};

const KARAMBIT_FN = '★ Karambit | Doppler (Factory New)';

const CS2_ITEMS: CatalogItem[] = [
  item('cs2', 'ak47-redline-ft', 'AK-47 | Redline (Field-Tested)', 'skin'),
  item('cs2', 'awp-asiimov-ft', 'AWP | Asiimov (Field-Tested)', 'skin'),
  {
    ...item('cs2', 'karambit-doppler-fn', KARAMBIT_FN, 'knife'),
    variants: [
      {
        marketHashName: '★ Karambit | Doppler Phase 2 (Factory New)',
        family: 'doppler',
        name: 'Phase 2',
        phase: 2,
        paintIndex: 419,
      },
      {
        marketHashName: '★ Karambit | Doppler Ruby (Factory New)',
        family: 'doppler',
        name: 'Ruby',
        paintIndex: 415,
      },
    ],
  },
  {
    ...item('cs2', 'karambit-doppler-fn-p2', '★ Karambit | Doppler Phase 2 (Factory New)', 'knife'),
    variantOf: 'karambit-doppler-fn',
    phase: 'Phase 2',
  },
  item('cs2', 'bayonet-doppler-fn', '★ Bayonet | Doppler (Factory New)', 'knife'),
];

const RUST_ITEMS: CatalogItem[] = [item('rust', 'black-hoodie', 'Black Hoodie', 'other')];

function item(game: Game, id: string, marketHashName: string, category: CatalogItem['category']) {
  return { id, game, marketHashName, slug: id, category } satisfies CatalogItem;
}

export function tinyCatalog(game: Game, items: readonly CatalogItem[]): Catalog {
  const byName = new Map(items.map((entry) => [entry.marketHashName, entry]));
  const byId = new Map(items.map((entry) => [entry.id, entry]));
  return {
    game,
    items,
    rarities: [],
    byName: (name) => byName.get(name),
    byId: (id) => byId.get(id),
    resolve: (nameOrId) => byName.get(nameOrId) ?? byId.get(nameOrId),
    search: (query) =>
      items.filter((entry) => entry.marketHashName.toLowerCase().includes(query.toLowerCase())),
  };
}

export function testCatalogs(): Record<Game, Catalog> {
  return { cs2: tinyCatalog('cs2', CS2_ITEMS), rust: tinyCatalog('rust', RUST_ITEMS) };
}

export function marketInfo(overrides: Partial<MarketInfo> = {}): MarketInfo {
  return {
    id: 'skinport',
    displayName: 'Skinport',
    games: ['cs2'],
    currency: 'USD',
    scale: 100,
    cadenceMs: 60_000,
    capabilities: { asks: true, bids: false, sales: true, listings: false, floats: false },
    docsUrl: null,
    ...overrides,
  };
}

export function askObservation(overrides: Partial<BookObservation> = {}): BookObservation {
  return {
    kind: 'book',
    game: 'cs2',
    market: 'skinport',
    item: 'AK-47 | Redline (Field-Tested)',
    currency: 'USD',
    scale: 100,
    side: 'ask',
    levels: [{ price: 1550, quantity: 3, orders: 3 }],
    listingCount: 42,
    fetchedAt: Date.parse('2026-11-01T00:00:00Z'),
    sourceUpdatedAt: null,
    sourceTimeKind: null,
    ...overrides,
  };
}

/** One scripted step per fetch: a body (parsed into the given observations) or an error. */
export type AdapterStep =
  { observations: Observation[] } | { error: Error } | { parseThrows: Error };

export interface ScriptedAdapter extends MarketAdapter {
  fetches: FetchContext[];
}

export function scriptedAdapter(info: MarketInfo, steps: AdapterStep[]): ScriptedAdapter {
  const fetches: FetchContext[] = [];
  return {
    info,
    fetches,
    async fetchRaw(ctx) {
      fetches.push(ctx);
      const step = steps.shift();
      if (!step) throw new Error('script exhausted');
      if ('error' in step) throw step.error;
      return step;
    },
    parse(body): ParseResult {
      const step = body as AdapterStep;
      if ('parseThrows' in step) throw step.parseThrows;
      return { observations: 'observations' in step ? step.observations : [], rejected: [] };
    },
  };
}

export interface RecordingStore {
  batches: IngestBatch[];
  /** The fence each batch was written under (undefined: none). */
  fences: (WriteFence | undefined)[];
  fetchWrites: FetchRecord[][];
  failWrites: number;
  writeBatch(batch: IngestBatch, fence?: WriteFence): Promise<BatchWriteCounts>;
  recordFetches(rows: FetchRecord[]): Promise<void>;
  loadFetches(sinceMs: number): Promise<FetchRecord[]>;
}

export function recordingStore(seedFetches: FetchRecord[] = []): RecordingStore {
  const store: RecordingStore = {
    batches: [],
    fences: [],
    fetchWrites: [],
    failWrites: 0,
    async writeBatch(batch, fence) {
      if (store.failWrites > 0) {
        store.failWrites -= 1;
        throw new Error('disk full');
      }
      store.batches.push(batch);
      store.fences.push(fence);
      return {
        sides: batch.sides.length,
        sales: batch.sales.length,
        listings: batch.listings.length,
      };
    },
    async recordFetches(rows) {
      store.fetchWrites.push(rows);
    },
    async loadFetches(sinceMs) {
      return seedFetches.filter((row) => row.startedAt >= sinceMs);
    },
  };
  return store;
}

export interface ManualTimers extends Timers {
  pending(): { id: number; ms: number }[];
  /** Runs one pending callback by id. */
  fire(id: number): void;
}

export function manualTimers(): ManualTimers {
  let nextId = 1;
  const queue = new Map<number, { ms: number; callback: () => void }>();
  return {
    setTimeout(callback, ms) {
      const id = nextId++;
      queue.set(id, { ms, callback });
      return id;
    },
    clearTimeout(handle) {
      queue.delete(handle as number);
    },
    pending: () => [...queue].map(([id, entry]) => ({ id, ms: entry.ms })),
    fire(id) {
      const entry = queue.get(id);
      if (!entry) throw new Error(`no timer ${id} pending`);
      queue.delete(id);
      entry.callback();
    },
  };
}

export interface CapturingLogger {
  lines: { level: string; obj: object; msg: string }[];
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export function capturingLogger(): CapturingLogger {
  const lines: CapturingLogger['lines'] = [];
  return {
    lines,
    info: (obj, msg) => lines.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => lines.push({ level: 'error', obj, msg }),
  };
}

export function fetchRecord(market: MarketId, startedAt: number, ok = true): FetchRecord {
  return {
    market,
    game: 'cs2',
    startedAt,
    fetchedAt: startedAt + 100,
    ingestedAt: ok ? startedAt + 150 : null,
    ok,
    errorKind: ok ? null : 'retryable',
    observationCount: ok ? 1 : 0,
    rejectedCount: 0,
    failure: ok ? null : 'http_5xx',
    detail: null,
    unmappedCount: 0,
  };
}
