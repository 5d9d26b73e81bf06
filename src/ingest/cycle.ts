/**
 * One ingest cycle for one (market, game): fetch → parse, then the poll's observations in slices
 * of whole items, each normalised → committed to the store → applied to the book, and dropped
 * before the next. A slice is applied only after its store transaction commits, so nothing is
 * served that is not durable. A cycle is still one fetch and one FetchRecord (counts summed over
 * its slices), now written in one transaction per slice: when slice k fails to commit, slices
 * before it stay committed and applied, the rest of the poll is dropped, and the record fails
 * with `store` (its counts cover the slices normalised by then; the next poll rewrites them all).
 * Every attempt yields a FetchRecord: retryable or permanent, the failure kind (the adapter's
 * for fetches; `internal` for a parser bug, `store` for a failed commit, `no_data` when every
 * observation of the poll was rejected), a one-line detail, and the unmapped count.
 */
import type { Book } from '../book/book.ts';
import { resolveItem } from '../catalog/resolve-item.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Clock } from '../domain/clock.ts';
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Observation } from '../domain/observation.ts';
import type { FetchFailure } from '../domain/fetch-failure.ts';
import { FETCH_DETAIL_MAX, type FetchRecord, type IngestBatch } from '../domain/quote.ts';
import {
  AdapterError,
  SimulatedFailure,
  type MarketAdapter,
  type ParseResult,
} from '../markets/market-adapter.ts';
import type { PriceStore, WriteFence } from '../store/price-store.ts';
import type { FxTable } from './fx.ts';
import { normalise, type NormaliseContext } from './normalise.ts';
import type { RejectionEvent } from './rejections.ts';

/**
 * Items per slice. A full-catalog poll (about 25k items) written at once kept every normalised
 * ladder alive until its commit, so the scavenges during the poll copied and promoted them.
 * 5,000 items make a full poll five transactions of up to 10k sides (about 50 ms each here): in
 * bench/cycle-scavenges.ts this cut the cycles' scavenge time by a third at the same wall time,
 * while 2,000 items cost about 10% more wall time in per-transaction work and 250 items twice it.
 * 12,500 wrote 0.92× the bytes (fewer commits) but halved the pinned bench's steady reads.
 */
export const SLICE_ITEMS = 5_000;

export interface CycleDeps {
  catalogs: Partial<Record<Game, Catalog>>;
  /** The rates in force now (they may be refreshed between cycles). */
  fx: () => FxTable;
  /** Non-USD observations are refused when the rates are older than this (see fx.ts). */
  fxMaxAgeMs?: number;
  /** Hears each committed slice of the poll. */
  book: Pick<Book, 'apply'>;
  store: Pick<PriceStore, 'writeBatch'>;
  /**
   * The lease proof to write the market's results under (the ingest role); null when the lease
   * is no longer held, which fails the cycle before the next slice is written. Default: no fence.
   */
  fence?: (market: MarketId) => WriteFence | null;
  clock: Clock;
  /** A listener error after a committed write: logged, never fails the cycle. */
  onBookError(error: unknown): void;
  /** Items per slice (default SLICE_ITEMS). */
  sliceItems?: number;
}

export type ErrorKind = 'retryable' | 'permanent';

/** What a cycle committed, summed over its slices (also on a failure after some committed). */
export interface CycleCommitted {
  slices: number;
  sides: number;
  sales: number;
  listings: number;
  salesStats: number;
}

export interface CycleOutcome {
  record: FetchRecord;
  /**
   * Counts of what was committed. The batches themselves went to `book.apply` one slice at a
   * time and are not kept: holding them here would keep the whole poll alive again.
   */
  committed: CycleCommitted;
  rejections: RejectionEvent[];
  /** `simulated`: the market simulator staged the failure (SimulatedFailure). */
  error: { kind: ErrorKind; message: string; simulated: boolean } | null;
}

type Stage = 'fetch' | 'parse' | 'store';

/** A parsed poll cut into slices; the body and the parse result are no longer referenced. */
interface SlicedPoll {
  slices: Observation[][];
  observationCount: number;
  /** The adapter's rejections and the observations of another market or game. */
  rejections: RejectionEvent[];
  partial: ParseResult['partial'];
}

export async function runCycle(
  adapter: MarketAdapter,
  game: Game,
  deps: CycleDeps,
): Promise<CycleOutcome> {
  const market = adapter.info.id;
  const startedAt = deps.clock.now();
  const record: FetchRecord = {
    market,
    game,
    startedAt,
    fetchedAt: startedAt,
    ingestedAt: null,
    ok: false,
    errorKind: null,
    observationCount: 0,
    rejectedCount: 0,
    failure: null,
    detail: null,
    unmappedCount: 0,
  };
  const run: CycleRun = {
    deps,
    market,
    record,
    stage: 'fetch',
    committed: { slices: 0, sides: 0, sales: 0, listings: 0, salesStats: 0 },
    rejections: [],
  };
  try {
    const poll = await fetchAndSlice(adapter, game, run);
    record.observationCount = poll.observationCount;
    run.rejections = poll.rejections;
    record.rejectedCount = run.rejections.length;
    if (poll.partial) noteFailure(record, poll.partial.kind, poll.partial.detail);
    const ctx: NormaliseContext = {
      catalogs: deps.catalogs,
      fx: deps.fx(),
      now: deps.clock.now(),
      expected: { [market]: adapter.info },
      ...(deps.fxMaxAgeMs === undefined ? {} : { fxMaxAgeMs: deps.fxMaxAgeMs }),
    };
    const total = poll.slices.length;
    const pending = poll.slices.reverse();
    for (let slice = pending.pop(); slice; slice = pending.pop()) {
      await commitSlice(slice, ctx, run, total);
    }
    if (run.committed.slices === 0 && run.rejections.length > 0) {
      throw new NoDataError(run.rejections);
    }
    record.ingestedAt = deps.clock.now();
    record.ok = true;
    return { record, committed: run.committed, rejections: run.rejections, error: null };
  } catch (error) {
    if (run.stage === 'fetch') record.fetchedAt = deps.clock.now();
    record.errorKind = classify(error, run.stage);
    const message = error instanceof Error ? error.message : String(error);
    noteFailure(record, failureKind(error, run.stage), message);
    const simulated = error instanceof SimulatedFailure;
    const failed = { kind: record.errorKind, message, simulated };
    return { record, committed: run.committed, rejections: run.rejections, error: failed };
  }
}

/** One cycle's state as it goes: where it is, what it committed, what it rejected. */
interface CycleRun {
  deps: CycleDeps;
  market: MarketId;
  record: FetchRecord;
  stage: Stage;
  committed: CycleCommitted;
  rejections: RejectionEvent[];
}

/** Normalises one slice, commits it under the fence and applies it to the book. */
async function commitSlice(
  slice: readonly Observation[],
  ctx: NormaliseContext,
  run: CycleRun,
  total: number,
): Promise<void> {
  run.stage = 'parse';
  const { batch, rejected } = normalise(slice, ctx);
  for (const rejection of rejected) run.rejections.push(rejection);
  run.record.rejectedCount = run.rejections.length;
  run.record.unmappedCount += rejected.filter((entry) => entry.reason === 'unknown_item').length;
  if (isEmptyBatch(batch)) return;
  run.stage = 'store';
  const done = run.committed.slices;
  await writeUnderFence(run.deps, run.market, batch).catch((error: unknown) => {
    throw done === 0 ? error : new SliceError(error, done, total);
  });
  count(run.committed, batch);
  applyToBook(run.deps, batch);
}

/**
 * Fetches and parses one poll and cuts it into slices. The body is a local of this function
 * only, so it is unreachable as soon as the parse returns.
 */
async function fetchAndSlice(
  adapter: MarketAdapter,
  game: Game,
  run: CycleRun,
): Promise<SlicedPoll> {
  const { deps, record } = run;
  const body = await adapter.fetchRaw({ game, now: record.startedAt });
  record.fetchedAt = deps.clock.now();
  run.stage = 'parse';
  const parsed = checkParseResult(adapter.parse(body, { game, now: record.fetchedAt }));
  const market = adapter.info.id;
  const { own, foreign } = splitForeign(parsed.observations, adapter, game);
  const rejected = parsed.rejected.map((rejection) => ({ ...rejection, market }));
  return {
    slices: sliceByItem(own, deps.catalogs[game], deps.sliceItems ?? SLICE_ITEMS),
    observationCount: parsed.observations.length,
    rejections: [...rejected, ...foreign],
    partial: parsed.partial,
  };
}

/**
 * The observations in slices of at most `size` items, in the poll's order. Every observation
 * of one item lands in the same slice, and so do a Doppler phase's and its base item's (the
 * bucket history derives a base item's buckets from its phases' listings): what normalise
 * merges per item, and what the book and the store replace per (item, market), is then whole
 * in one slice, so a sliced poll leaves the same state as the poll written at once.
 */
export function sliceByItem(
  observations: readonly Observation[],
  catalog: Catalog | undefined,
  size: number,
): Observation[][] {
  const sliceOfKey = new Map<string, number>();
  const sliceOfName = new Map<unknown, number>();
  const slices: Observation[][] = [];
  for (const observation of observations) {
    let slice = sliceOfName.get(observation.item);
    if (slice === undefined) {
      const key = itemKey(observation.item, catalog);
      slice = sliceOfKey.get(key) ?? Math.floor(sliceOfKey.size / size);
      if (!sliceOfKey.has(key)) sliceOfKey.set(key, slice);
      sliceOfName.set(observation.item, slice);
    }
    (slices[slice] ??= []).push(observation);
  }
  return slices;
}

/** The base catalog item a source name resolves to; the name itself when it resolves to none. */
function itemKey(name: unknown, catalog: Catalog | undefined): string {
  const item = catalog && typeof name === 'string' ? resolveItem(catalog, name) : undefined;
  if (!item) return `name\u0000${String(name)}`;
  return `item\u0000${item.variantOf ?? item.id}`;
}

function count(committed: CycleCommitted, batch: IngestBatch): void {
  committed.slices += 1;
  committed.sides += batch.sides.length;
  committed.sales += batch.sales.length;
  committed.listings += batch.listings.length;
  committed.salesStats += batch.salesStats?.length ?? 0;
}

/** A slice after the first failed to commit: says how much of the poll did. */
class SliceError extends Error {
  constructor(cause: unknown, committedSlices: number, total: number) {
    const message = cause instanceof Error ? cause.message : String(cause);
    super(`${message} (${committedSlices} of ${total} slices committed before it)`, { cause });
  }
}

async function writeUnderFence(deps: CycleDeps, market: MarketId, batch: IngestBatch) {
  if (!deps.fence) return deps.store.writeBatch(batch);
  const fence = deps.fence(market);
  if (fence === null) throw new Error(`lease of ${market} is no longer held; results dropped`);
  return deps.store.writeBatch(batch, fence);
}

/** Every observation of a fetch was refused: nothing usable arrived, so the fetch failed. */
class NoDataError extends Error {
  constructor(rejections: readonly RejectionEvent[]) {
    const first = rejections[0]!;
    super(
      `all ${rejections.length} observations rejected; first: ${first.reason}: ${first.detail}`,
    );
  }
}

function noteFailure(record: FetchRecord, kind: FetchFailure, detail: string): void {
  record.failure = kind;
  record.detail =
    detail.length > FETCH_DETAIL_MAX ? `${detail.slice(0, FETCH_DETAIL_MAX - 1)}…` : detail;
}

function failureKind(error: unknown, stage: Stage): FetchFailure {
  if (error instanceof NoDataError) return 'no_data';
  if (stage === 'store') return 'store';
  if (stage === 'fetch' && error instanceof AdapterError) return error.kind;
  if (stage === 'fetch') return 'network';
  return 'internal';
}

function applyToBook(deps: CycleDeps, batch: IngestBatch): void {
  try {
    deps.book.apply(batch);
  } catch (error) {
    deps.onBookError(error);
  }
}

/**
 * Fetch failures: AdapterError says which kind; anything else (a socket error) is retryable.
 * Parse failures are bugs in the adapter: permanent. Store failures: retryable.
 */
function classify(error: unknown, stage: Stage): ErrorKind {
  if (error instanceof NoDataError) return 'retryable';
  if (stage === 'parse') return 'permanent';
  if (stage === 'fetch' && error instanceof AdapterError && !error.retryable) return 'permanent';
  return 'retryable';
}

function checkParseResult(result: ParseResult): ParseResult {
  if (!result || !Array.isArray(result.observations) || !Array.isArray(result.rejected)) {
    throw new Error('adapter parse returned no {observations, rejected} arrays');
  }
  return result;
}

/** Observations that claim another market or game than the cycle's are rejected as malformed. */
function splitForeign(observations: readonly Observation[], adapter: MarketAdapter, game: Game) {
  const own: Observation[] = [];
  const foreign: RejectionEvent[] = [];
  for (const observation of observations) {
    if (observation.market === adapter.info.id && observation.game === game) own.push(observation);
    else {
      foreign.push({
        reason: 'malformed',
        detail: `observation for ${observation.market}/${observation.game} in a ${adapter.info.id}/${game} cycle`,
        market: adapter.info.id,
        item: observation.item,
      });
    }
  }
  return { own, foreign };
}

export function isEmptyBatch(batch: IngestBatch): boolean {
  return (
    batch.sides.length === 0 &&
    batch.sales.length === 0 &&
    batch.listings.length === 0 &&
    (batch.salesStats?.length ?? 0) === 0
  );
}
