/**
 * One ingest cycle for one (market, game): fetch → parse → normalise → store commit → book.
 * The book is updated only after the store transaction commits, so nothing is served that is
 * not durable. Every attempt yields a FetchRecord: retryable or permanent, the failure kind
 * (the adapter's for fetches; `internal` for a parser bug, `store` for a failed commit,
 * `no_data` when every observation was rejected), a one-line detail, and the unmapped count.
 */
import type { Book } from '../book/book.ts';
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
import { normalise } from './normalise.ts';
import type { RejectionEvent } from './rejections.ts';

export interface CycleDeps {
  catalogs: Partial<Record<Game, Catalog>>;
  /** The rates in force now (they may be refreshed between cycles). */
  fx: () => FxTable;
  /** Non-USD observations are refused when the rates are older than this (see fx.ts). */
  fxMaxAgeMs?: number;
  book: Pick<Book, 'apply'>;
  store: Pick<PriceStore, 'writeBatch'>;
  /**
   * The lease proof to write the market's results under (the ingest role); null when the lease
   * is no longer held, which fails the cycle before anything is written. Default: no fence.
   */
  fence?: (market: MarketId) => WriteFence | null;
  clock: Clock;
  /** A listener error after a committed write: logged, never fails the cycle. */
  onBookError(error: unknown): void;
}

export type ErrorKind = 'retryable' | 'permanent';

export interface CycleOutcome {
  record: FetchRecord;
  /** The committed batch (null when the cycle failed). */
  batch: IngestBatch | null;
  rejections: RejectionEvent[];
  /** `simulated`: the market simulator staged the failure (SimulatedFailure). */
  error: { kind: ErrorKind; message: string; simulated: boolean } | null;
}

type Stage = 'fetch' | 'parse' | 'store';

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
  let stage: Stage = 'fetch';
  let rejections: RejectionEvent[] = [];
  try {
    const body = await adapter.fetchRaw({ game, now: startedAt });
    record.fetchedAt = deps.clock.now();
    stage = 'parse';
    const parsed = checkParseResult(adapter.parse(body, { game, now: record.fetchedAt }));
    const { own, foreign } = splitForeign(parsed.observations, adapter, game);
    const { batch, rejected } = normalise(own, {
      catalogs: deps.catalogs,
      fx: deps.fx(),
      now: deps.clock.now(),
      expected: { [market]: adapter.info },
      ...(deps.fxMaxAgeMs === undefined ? {} : { fxMaxAgeMs: deps.fxMaxAgeMs }),
    });
    rejections = [
      ...parsed.rejected.map((rejection) => ({ ...rejection, market })),
      ...foreign,
      ...rejected,
    ];
    record.observationCount = parsed.observations.length;
    record.rejectedCount = rejections.length;
    record.unmappedCount = rejected.filter((entry) => entry.reason === 'unknown_item').length;
    if (parsed.partial) noteFailure(record, parsed.partial.kind, parsed.partial.detail);
    if (isEmptyBatch(batch) && rejections.length > 0) throw new NoDataError(rejections);
    stage = 'store';
    if (!isEmptyBatch(batch)) await writeUnderFence(deps, market, batch);
    record.ingestedAt = deps.clock.now();
    record.ok = true;
    applyToBook(deps, batch);
    return { record, batch, rejections, error: null };
  } catch (error) {
    if (stage === 'fetch') record.fetchedAt = deps.clock.now();
    record.errorKind = classify(error, stage);
    const message = error instanceof Error ? error.message : String(error);
    noteFailure(record, failureKind(error, stage), message);
    const simulated = error instanceof SimulatedFailure;
    const failed = { kind: record.errorKind, message, simulated };
    return { record, batch: null, rejections, error: failed };
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
