/**
 * The simulator's history backfill survives a stop. It runs in two phases, the items the docs
 * name and then the popular band, both ending at the band's `toMs`. Its place (end, phase,
 * chunks of the phase written) is stored with each chunk in that chunk's transaction
 * (JobProgress), so a start that finds a place resumes after the last committed chunk:
 * nothing written twice, nothing left out, whichever store and role (band-resume.test.ts,
 * test/backfill-resume.test.ts).
 */
import { HOUR, type Clock } from '../domain/clock.ts';
import type { JobProgress, PriceStore } from '../store/price-store.ts';
import { backfillHistory, type BackfillOptions } from './backfill.ts';

export const BACKFILL_JOB = 'sim-backfill';

export type BandPhase = 'named' | 'popular';

export interface BandPlace {
  toMs: number;
  phase: BandPhase;
  /** Chunks of the phase written. */
  done: number;
}

/** A first start's place: nothing written, the band ending one step before now. */
export function freshBand(clock: Clock): BandPlace {
  return { toMs: clock.now() - HOUR, phase: 'named', done: 0 };
}

/** Whether the place is where a stopped run left off (not a band's beginning). */
export function resumes(place: BandPlace): boolean {
  return place.phase !== 'named' || place.done > 0;
}

export function bandProgress(place: BandPlace | null): JobProgress {
  return { job: BACKFILL_JOB, state: place === null ? null : JSON.stringify(place) };
}

function parsePlace(state: string): BandPlace | null {
  try {
    const place = JSON.parse(state) as Partial<BandPlace>;
    const known = place.phase === 'named' || place.phase === 'popular';
    if (!known || !Number.isSafeInteger(place.toMs) || !Number.isSafeInteger(place.done)) {
      return null;
    }
    return { toMs: place.toMs!, phase: place.phase!, done: place.done! };
  } catch {
    return null;
  }
}

/** Where a stopped backfill left off, or null when none is unfinished. */
export async function unfinishedBand(
  store: Pick<PriceStore, 'jobProgress'>,
): Promise<BandPlace | null> {
  const state = await store.jobProgress(BACKFILL_JOB);
  return state === null ? null : parsePlace(state);
}

export interface PhaseResult {
  totals: Awaited<ReturnType<typeof backfillHistory>>;
  /** Where the band goes on: the popular phase after the named one, null once finished. */
  next: BandPlace | null;
}

const EMPTY_BATCH = { sides: [], sales: [], listings: [] };

/**
 * Writes the rest of the place's phase, each chunk with its place, then stores where the
 * band goes on. Null when stopped (`signal`) before the end: the stored place stays.
 */
export async function runPhase(
  options: BackfillOptions,
  place: BandPlace,
): Promise<PhaseResult | null> {
  const totals = await backfillHistory({
    ...options,
    toMs: place.toMs,
    cover: place.phase,
    skipChunks: place.done,
    progressAfter: (done) => bandProgress({ ...place, done }),
  });
  if (options.signal?.aborted) return null;
  const next: BandPlace | null =
    place.phase === 'named' ? { toMs: place.toMs, phase: 'popular', done: 0 } : null;
  await options.store.writeBatch(EMPTY_BATCH, undefined, bandProgress(next));
  return { totals, next };
}
