/**
 * `pricing import`: streams an NDJSON file line by line (never whole into memory), parses each
 * line strictly, and sends the good ones through the same normalise → store → book path as
 * live ingest, one store transaction per chunk. Every bad line is reported with its 1-based
 * line number, in line order (a line that does not parse and one that normalise refuses are
 * merged per chunk); every good line is kept.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Book } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Clock } from '../domain/clock.ts';
import type { Game } from '../domain/games.ts';
import type { Observation } from '../domain/observation.ts';
import type { BatchWriteCounts, JobProgress, PriceStore } from '../store/price-store.ts';
import { isEmptyBatch } from './cycle.ts';
import type { FxTable } from './fx.ts';
import { parseImportLine } from './import-line.ts';
import { normalise } from './normalise.ts';

export { parseImportLine } from './import-line.ts';

export type ImportLine =
  { line: number; observation: Observation } | { line: number; error: string };

/** Parses lines of text (a whole string, or any iterable of lines); blank lines are skipped. */
export async function* parseImportLines(
  source: string | Iterable<string> | AsyncIterable<string>,
): AsyncGenerator<ImportLine> {
  const lines = typeof source === 'string' ? source.split(/\r?\n/) : source;
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    const parsed = parseImportLine(text);
    yield parsed.ok ? { line, observation: parsed.observation } : { line, error: parsed.reason };
  }
}

/** The lines of a file, streamed (CRLF or LF). */
export function readFileLines(path: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
}

export interface ImportDeps {
  catalogs: Partial<Record<Game, Catalog>>;
  fx: FxTable;
  book: Pick<Book, 'apply'>;
  store: Pick<PriceStore, 'writeBatch'>;
  clock: Clock;
  /** Observations per store transaction. */
  chunkSize?: number;
  /** Rejections listed in the summary (all are counted). */
  maxRejectedListed?: number;
  /** A job's progress, stored with each commit (even of an empty chunk). */
  progress?: JobProgress;
}

export interface ImportRejection {
  line: number;
  /** `invalid` for a line that did not parse, else the normalise reason (`unknown_item`, …). */
  code: string;
  reason: string;
}

export interface ImportSummary {
  /** Non-blank lines read. */
  lines: number;
  accepted: number;
  rejectedCount: number;
  rejected: ImportRejection[];
  written: { sides: number; sales: number; listings: number; transactions: number };
  /** Of those, the rows the store did not hold yet (or held older or different copies of). */
  changed: BatchWriteCounts;
}

export const DEFAULT_IMPORT_CHUNK = 5_000;

/**
 * Counts every rejection and lists the first `max` by line. Lines that did not parse wait for
 * their chunk's normalise rejections (which come later, at commit) and are listed merged with
 * them; only as many wait as could still be listed.
 */
class Rejections {
  private waiting: ImportRejection[] = [];

  constructor(
    private readonly summary: ImportSummary,
    private readonly max: number,
  ) {}

  unparsed(rejection: ImportRejection): void {
    this.summary.rejectedCount += 1;
    if (this.summary.rejected.length + this.waiting.length < this.max) this.waiting.push(rejection);
  }

  /** The chunk's normalise rejections (in line order), merged with the lines waiting. */
  settle(refused: readonly ImportRejection[]): void {
    this.summary.rejectedCount += refused.length;
    const merged = [...this.waiting, ...refused].sort((a, b) => a.line - b.line);
    this.waiting = [];
    for (const rejection of merged) {
      if (this.summary.rejected.length < this.max) this.summary.rejected.push(rejection);
    }
  }
}

export async function importObservations(
  lines: Iterable<ImportLine> | AsyncIterable<ImportLine>,
  deps: ImportDeps,
): Promise<ImportSummary> {
  const chunkSize = deps.chunkSize ?? DEFAULT_IMPORT_CHUNK;
  const summary: ImportSummary = {
    lines: 0,
    accepted: 0,
    rejectedCount: 0,
    rejected: [],
    written: { sides: 0, sales: 0, listings: 0, transactions: 0 },
    changed: { sides: 0, sales: 0, listings: 0 },
  };
  const rejections = new Rejections(summary, deps.maxRejectedListed ?? 1_000);
  let chunk: { line: number; observation: Observation }[] = [];
  for await (const entry of lines) {
    summary.lines += 1;
    if ('error' in entry) {
      rejections.unparsed({ line: entry.line, code: 'invalid', reason: entry.error });
    } else chunk.push(entry);
    if (chunk.length >= chunkSize) {
      await commitChunk(chunk, deps, summary, rejections);
      chunk = [];
    }
  }
  await commitChunk(chunk, deps, summary, rejections);
  return summary;
}

async function commitChunk(
  chunk: readonly { line: number; observation: Observation }[],
  deps: ImportDeps,
  summary: ImportSummary,
  rejections: Rejections,
): Promise<void> {
  const { batch, rejected } = normalise(
    chunk.map((entry) => entry.observation),
    { catalogs: deps.catalogs, fx: deps.fx, now: deps.clock.now() },
  );
  rejections.settle(
    rejected.map((rejection) => ({
      line: chunk[rejection.index]!.line,
      code: rejection.reason,
      reason: `${rejection.reason}: ${rejection.detail}`,
    })),
  );
  summary.accepted += chunk.length - rejected.length;
  if (isEmptyBatch(batch)) {
    if (deps.progress) await deps.store.writeBatch(batch, undefined, deps.progress);
    return;
  }
  let changed: BatchWriteCounts;
  try {
    changed = await deps.store.writeBatch(batch, undefined, deps.progress);
  } catch (error) {
    const range = `${chunk[0]!.line}-${chunk[chunk.length - 1]!.line}`;
    throw new Error(`import: store write failed for lines ${range}`, { cause: error });
  }
  deps.book.apply(batch);
  summary.written.sides += batch.sides.length;
  summary.written.sales += batch.sales.length;
  summary.written.listings += batch.listings.length;
  summary.written.transactions += 1;
  summary.changed.sides += changed.sides;
  summary.changed.sales += changed.sales;
  summary.changed.listings += changed.listings;
}

/** Streams and imports one NDJSON file. */
export function importFile(path: string, deps: ImportDeps): Promise<ImportSummary> {
  return importObservations(parseImportLines(readFileLines(path)), deps);
}
