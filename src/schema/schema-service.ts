/**
 * The item schema of both games, kept in step with the store: at start it loads each game's
 * change log, syncs the package catalog into it (new and changed items get a new version,
 * vanished package items a removal) and builds the snapshot; `refresh` (polled every second)
 * picks up what other processes appended (learned items); `learn` adds a name the naming
 * authority lists. Reads never touch the store: they page the in-memory log.
 */
import { slugify } from '../catalog/slug.ts';
import type { Clock } from '../domain/clock.ts';
import { GAMES, type Game } from '../domain/games.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { PreparedPayload } from '../domain/prepared-payload.ts';
import { Slicer } from '../domain/slicer.ts';
import {
  ChangeLog,
  nextVersion,
  planChanges,
  type DesiredRecord,
  type LogEntry,
} from './change-log.ts';
import { learnedRecord, recordHash, schemaRecord, type SchemaRecord } from './records.ts';
import type { SchemaRegistries } from './registries.ts';
import type { SchemaStore } from './schema-store.ts';
import { prepareSnapshot, snapshotBody } from './snapshot.ts';

export interface GameSource {
  /** The package catalog's items (learned items are not among them). */
  items: readonly CatalogItem[];
  registries: SchemaRegistries;
}

export interface SchemaServiceOptions {
  store: SchemaStore;
  clock: Clock;
  sources: Readonly<Record<Game, GameSource>>;
  gzipLevel?: number;
  /** Hears learned records as they enter the log (to make them priceable). */
  onLearned?: (game: Game, records: readonly SchemaRecord[]) => void;
}

interface GameState {
  log: ChangeLog;
  payload: PreparedPayload | null;
  building: Promise<void> | null;
}

export class SchemaService {
  private readonly states = new Map<Game, GameState>();
  private secret: Buffer | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private serving = false;
  private loaded: Promise<boolean> | null = null;
  private synced: Promise<void> | null = null;

  constructor(private readonly options: SchemaServiceOptions) {
    for (const game of GAMES)
      this.states.set(game, { log: new ChangeLog(), payload: null, building: null });
  }

  /** Loads, syncs the package catalog and builds every snapshot (a serving process). */
  async start(): Promise<void> {
    const secret = await this.options.store.cursorSecret();
    await this.syncSources();
    for (const game of GAMES) await this.rebuild(game);
    this.serving = true;
    this.secret = secret;
  }

  /**
   * Loads every game's log, once (learned items become priceable; all an ingest process that
   * learns items and serves nothing needs); true when a log was empty, as on a first start.
   */
  loadLogs(): Promise<boolean> {
    this.loaded ??= (async () => {
      let empty = false;
      for (const game of GAMES) {
        this.absorb(game, await this.options.store.entriesAfter(game, 0));
        empty ||= this.state(game).log.head() === 0;
      }
      return empty;
    })();
    return this.loaded;
  }

  /**
   * Syncs every loaded log with the package catalog, once. A first start writes every item in
   * one synchronous transaction per game (seconds for the full CS2 catalog), so a serving
   * process awaits it before it listens; a restart, where the catalog mostly matches the log,
   * listens first: what changed is written SYNC_ITEMS items a transaction (a version each).
   */
  syncSources(): Promise<void> {
    this.synced ??= (async () => {
      const firstStart = await this.loadLogs();
      for (const game of GAMES) {
        const desired = await desiredInSlices(this.options.sources[game].items);
        if (firstStart) await this.sync(game, desired, true);
        else await this.syncInParts(game, desired);
      }
    })();
    return this.synced;
  }

  /** Polls the store for other processes' changes every `intervalMs`. */
  startRefresh(intervalMs = 1000, onError: (error: unknown) => void = () => {}): void {
    this.stop();
    this.timer = setInterval(() => void this.refresh().catch(onError), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async refresh(): Promise<void> {
    for (const game of GAMES) {
      const newer = await this.options.store.entriesAfter(game, this.state(game).log.head());
      if (newer.length === 0) continue;
      this.absorb(game, newer);
      if (this.serving) await this.rebuild(game);
    }
  }

  /** A name the naming authority lists: a learned item unless the log already has it live. */
  async learn(game: Game, marketHashName: string, market: string): Promise<boolean> {
    const log = this.state(game).log;
    const live = [...log.latest().values()].filter((entry) => !entry.removed);
    if (live.some((entry) => entry.record.marketHashName === marketHashName)) return false;
    const slugs = new Set(live.map((entry) => entry.record.slug));
    const record = learnedRecord(game, marketHashName, '', market);
    record.slug = freeSlug(slugify(marketHashName), record.id, slugs);
    const appended = await this.sync(game, [{ ...desire(record), source: 'learned' }], false);
    if (appended.length > 0 && this.serving) await this.rebuild(game);
    return appended.length > 0;
  }

  /** null until the first build after start. */
  snapshot(game: Game): PreparedPayload | null {
    return this.state(game).payload;
  }

  log(game: Game): ChangeLog {
    return this.state(game).log;
  }

  registries(game: Game): SchemaRegistries {
    return this.options.sources[game].registries;
  }

  /** The cursor secret; null until started. */
  cursorSecret(): Buffer | null {
    return this.secret;
  }

  private state(game: Game): GameState {
    return this.states.get(game)!;
  }

  private absorb(game: Game, entries: readonly LogEntry[]): void {
    this.state(game).log.append(entries);
    const learned = entries.filter((entry) => entry.source === 'learned' && !entry.removed);
    if (learned.length > 0) {
      this.options.onLearned?.(
        game,
        learned.map((entry) => entry.record),
      );
    }
  }

  /** Writes only what differs, a part at a time, then the removals. */
  private async syncInParts(game: Game, desired: readonly DesiredRecord[]): Promise<void> {
    const differs = (part: readonly DesiredRecord[], removeMissing: boolean) =>
      planChanges(this.state(game).log.latest(), part, removeMissing, 0).length > 0;
    const slicer = new Slicer();
    for (let start = 0; start < desired.length; start += SYNC_ITEMS) {
      const part = desired.slice(start, start + SYNC_ITEMS);
      if (differs(part, false)) await this.sync(game, part, false);
      await slicer.pause();
    }
    if (differs(desired, true)) await this.sync(game, desired, true);
  }

  private async sync(
    game: Game,
    desired: readonly DesiredRecord[],
    removeMissing: boolean,
  ): Promise<LogEntry[]> {
    const log = this.state(game).log;
    const result = await this.options.store.sync(game, log.head(), (newer) => {
      this.absorb(game, newer);
      const version = nextVersion(log.head(), this.options.clock.now());
      return planChanges(log.latest(), desired, removeMissing, version);
    });
    this.absorb(game, result.appended);
    return result.appended;
  }

  /** Builds the game's snapshot after any running build of it (builds never overlap). */
  private async rebuild(game: Game): Promise<void> {
    const state = this.state(game);
    const previous = state.building;
    const run = (async () => {
      await previous?.catch(() => undefined);
      const body = await snapshotBody(state.log, this.options.sources[game].registries);
      state.payload = await prepareSnapshot(body, this.options.clock.now(), this.options.gzipLevel);
    })();
    state.building = run;
    try {
      await run;
    } finally {
      if (state.building === run) state.building = null;
    }
  }
}

/** Items whose changes a restart's sync writes in one transaction. */
const SYNC_ITEMS = 2000;

/** Records and hashes in slices (`Slicer`: the HTTP thread stays live, a build among builds). */
async function desiredInSlices(items: readonly CatalogItem[]): Promise<DesiredRecord[]> {
  const desired: DesiredRecord[] = [];
  const slicer = new Slicer();
  for (const item of items) {
    desired.push(desire(schemaRecord(item)));
    if (slicer.due()) await slicer.pause();
  }
  return desired;
}

function desire(record: SchemaRecord): DesiredRecord {
  return { record, hash: recordHash(record), source: 'catalog' };
}

function freeSlug(base: string, id: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  return `${base}-${id.slice(id.indexOf('_') + 1, id.indexOf('_') + 7)}`;
}
