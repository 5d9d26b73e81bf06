/**
 * How both stores write the latest state, so that a market that did not move costs no disk
 * (issue 18: most quotes of a fetch are the ones of the fetch before).
 *
 * - A side is rewritten by a newer fetch only when its content changed (levels, listing or
 *   order count, total quantity, source time kind, currency). The stored fetchedAt (and
 *   sourceUpdatedAt, ingestedAt) are those of the fetch that last changed it, so they lag the
 *   in-memory book, which every fetch refreshes. The lag only ever makes stored data look older,
 *   never fresher: after a restart a side unchanged for more than the staleness window is
 *   served as stale until its market's next fetch (the first poll after boot), then fresh again.
 * - A listing is rewritten when it changed, or when its stored fetchedAt is LISTING_CONFIRM_MS
 *   or more behind the fetch: listing retention prunes listings unseen for hours
 *   (src/ingest/retention.ts), so a listing still on the market must be re-confirmed well
 *   inside that horizon. Its stored fetchedAt lags by less than LISTING_CONFIRM_MS.
 * - A snapshot of the same fetch time as the stored one replaces it when it differs, and an
 *   older one never does (as before).
 * - A sales statistic is rewritten only when its content changed (SQLite since migration 11;
 *   PostgreSQL rewrites it on every newer fetch): its stored fetchedAt is that of its last
 *   change, as for sides.
 */
import { MINUTE } from '../domain/clock.ts';

/** Largest lag of a live listing's stored fetchedAt behind its latest fetch. */
export const LISTING_CONFIRM_MS = 30 * MINUTE;
