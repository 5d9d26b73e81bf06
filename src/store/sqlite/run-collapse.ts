/**
 * Runs: change-only storage of the rollup rows. A series whose quote nobody moves holds the
 * same thing bucket after bucket; once those buckets are settled (old enough that live ingest
 * no longer writes them), the retention pass stores such a stretch as ONE row whose `run`
 * says how many consecutive buckets it stands for. Reads expand a run back into its buckets,
 * so no reader can tell. Late data for a bucket inside a run (an import of the past) first
 * splits the run so the bucket has a row of its own again (splitRunAt).
 *
 * Rows join a run when their sections and units are byte-for-byte equal, except that a side
 * section's lastAt (kept on per-market 10-minute buckets, as an offset from the bucket's
 * start, so a snapshot is not counted twice) may differ: the run keeps the latest offset. Every
 * bucket of the run then reports that offset, so a re-sent snapshot is still never counted
 * twice, but a snapshot first delivered after its bucket settled, and older within its bucket
 * than that offset, is skipped like any snapshot older than one already counted.
 */
import { lastAtField, lastAtOffset } from '../rollup-codec.ts';
import type { RunRow, TierStatements } from './rollup-statements.ts';

type Blob = Buffer | null;

/** Both absent, or both present with the same bytes. */
const sameBlob = (a: Blob, b: Blob) => (a === null || b === null ? a === b : a.equals(b));

/** The section to keep when two side sections differ at most in lastAt, else undefined. */
function joinedSide(a: Blob, b: Blob): Blob | undefined {
  if (a === null || b === null) return a === b ? null : undefined;
  if (a.equals(b)) return a;
  const [startA, endA, codeA] = lastAtField(a);
  const [startB, endB, codeB] = lastAtField(b);
  if (codeA === 0 || codeB === 0) return undefined;
  if (!a.subarray(0, startA).equals(b.subarray(0, startB))) return undefined;
  if (!a.subarray(endA).equals(b.subarray(endB))) return undefined;
  return lastAtOffset(codeA)! >= lastAtOffset(codeB)! ? a : b;
}

interface Head {
  bucket: number;
  run: number;
  ask: Blob;
  bid: Blob;
  sales: Blob;
  units: number | null;
  grown: boolean;
}

const headOf = ([bucket, run, ask, bid, sales, units]: RunRow): Head => ({
  bucket,
  run,
  ask,
  bid,
  sales,
  units,
  grown: false,
});

/** Extends `head` by `row` when it follows on and holds the same; false when it cannot. */
function absorb(head: Head, row: RunRow): boolean {
  const [bucket, run, ask, bid, sales, units] = row;
  if (head.bucket + head.run !== bucket || head.units !== units) return false;
  if (!sameBlob(head.sales, sales)) return false;
  const keptAsk = joinedSide(head.ask, ask);
  const keptBid = keptAsk === undefined ? undefined : joinedSide(head.bid, bid);
  if (keptAsk === undefined || keptBid === undefined) return false;
  head.run += run;
  head.ask = keptAsk;
  head.bid = keptBid;
  head.grown = true;
  return true;
}

function store(statements: TierStatements, series: number, head: Head): void {
  if (!head.grown) return;
  statements.setRun.run(head.run, head.ask, head.bid, series, head.bucket);
  statements.deleteBetween.run(series, head.bucket, head.bucket + head.run);
}

/**
 * Joins the runs among `rows` (one series, in bucket order); returns the rows removed and the
 * first bucket of the last run (where a step that was cut short resumes).
 */
export function collapseRows(
  statements: TierStatements,
  series: number,
  rows: readonly RunRow[],
): { removed: number; lastHead: number | null } {
  if (rows.length === 0) return { removed: 0, lastHead: null };
  let head = headOf(rows[0]!);
  let removed = 0;
  for (let index = 1; index < rows.length; index += 1) {
    const row = rows[index]!;
    if (absorb(head, row)) {
      removed += 1;
      continue;
    }
    store(statements, series, head);
    head = headOf(row);
  }
  store(statements, series, head);
  return { removed, lastHead: head.bucket };
}

/** The stored row holding `bucket`: its own, or a run reaching over it. */
export function coveringRow(
  statements: TierStatements,
  series: number,
  bucket: number,
): RunRow | undefined {
  const found = statements.selectCovering.get(series, bucket);
  return found && found[0] + found[1] > bucket ? found : undefined;
}

/**
 * Gives `bucket` a row of its own when it lies in a run: the run is cut into the part before
 * it, the bucket, and the part after it (same sections each). Call inside a write transaction.
 */
export function splitRunAt(statements: TierStatements, series: number, bucket: number): void {
  const covering = coveringRow(statements, series, bucket);
  if (!covering || covering[1] === 1) return;
  const [start, run, ask, bid, sales, units] = covering;
  const end = start + run;
  if (start < bucket) {
    statements.shortenRun.run(bucket - start, series, start);
    statements.insertRun.run(series, bucket, ask, bid, sales, units, 1);
  } else {
    statements.shortenRun.run(1, series, bucket);
  }
  if (end > bucket + 1) {
    statements.insertRun.run(series, bucket + 1, ask, bid, sales, units, end - bucket - 1);
  }
}
