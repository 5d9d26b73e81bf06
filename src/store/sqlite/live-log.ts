/**
 * Listings and sales statistics of the SQLite store as an append-only change log with a
 * compact snapshot per (kind, game, market) chunk (tables in live-log-tables.ts), so that a
 * batch writes the rows that changed, in one appended blob per chunk, instead of dirtying
 * pages spread over a table's key range.
 *
 * - Write: inside writeBatch's transaction, each record that replaces the stored one (the
 *   kind's rule, live-kinds.ts) is appended. What is stored is known from fingerprints (fetch
 *   time and content hash per key), loaded per chunk from snapshot + log when the writer first
 *   touches it; another connection appending moves the log's sequence and they are reloaded.
 *   Memory the transaction changed is put back if it rolls back.
 * - Prune: one marker row per chunk (listings fetched before it go), counted from the
 *   fingerprints.
 * - Snapshot: once a chunk's log since its snapshot holds at least as many bytes as the
 *   snapshot (and at least `minBytes`), one transaction, between batches, writes the chunk's
 *   current rows as its new snapshot and deletes the log it includes. Bytes written are at
 *   most twice the log; a restart reads at most twice the snapshot. A kill at any point leaves
 *   either the old snapshot with its log or the new one: nothing committed is lost.
 * - Close: a store that wrote snapshots every chunk with log left.
 */
import type Database from 'better-sqlite3';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import { stringInterner } from '../row-decoding.ts';
import { contentSum, encodeRows, LISTINGS, SALES_STATS } from './live-kinds.ts';
import type { LiveKind, LiveRow, Print } from './live-kinds.ts';
import { chunkKey, chunkRows, type LiveChunk, type LiveLogStatements } from './live-log-tables.ts';
import type { SideItems, Undo } from './side-prints.ts';

/** The default floor on a chunk's log before it is snapshotted. */
export const LIVE_SNAPSHOT_MIN_BYTES = 64 * 1024;

export interface LiveLogOptions {
  minBytes?: number;
  onError: (message: string) => void;
}

interface ChunkMemory {
  prints: Map<string, Print>;
  snapshotBytes: number;
  logBytes: number;
}

type Keyed = { game: Game; market: MarketId; itemId: string };

const KINDS = { listings: LISTINGS, stats: SALES_STATS } as const;

export class LiveLog {
  private readonly chunks = new Map<string, ChunkMemory>();
  private readonly touched = new Map<string, LiveChunk>();
  private readonly due = new Map<string, LiveChunk>();
  private knownSeq = -1;
  private undo: Undo = [];
  private timer: NodeJS.Immediate | null = null;
  private wrote = false;
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    private readonly s: LiveLogStatements,
    private readonly items: SideItems,
    private readonly options: LiveLogOptions,
  ) {}

  /** In the batch's transaction: appends the records that replace stored ones; their count. */
  append<R extends Keyed>(kind: LiveKind<R>, records: readonly R[]): number {
    if (records.length === 0) return 0;
    this.catchUp();
    const byChunk = new Map<string, { chunk: LiveChunk; rows: LiveRow[] }>();
    for (const record of records) {
      const chunk: LiveChunk = { kind: kind.name, game: record.game, market: record.market };
      const id = chunkId(chunk);
      const row = kind.rowOf(record, this.items.codeFor(record.game, record.itemId, this.undo));
      if (!this.admit(kind, this.memoryOf(chunk, id), row)) continue;
      const group = byChunk.get(id) ?? { chunk, rows: [] };
      byChunk.set(id, group);
      group.rows.push(row);
    }
    let count = 0;
    for (const [id, { chunk, rows }] of byChunk) {
      this.write(id, chunk, encodeRows(rows), null);
      count += rows.length;
    }
    return count;
  }

  /** Drops the chunk's listings fetched before `beforeMs` (own transaction); their count. */
  prune(game: Game, market: MarketId, beforeMs: number): number {
    const chunk: LiveChunk = { kind: 'listings', game, market };
    const id = chunkId(chunk);
    const run = this.db.transaction(() => {
      this.catchUp();
      const memory = this.memoryOf(chunk, id);
      let count = 0;
      for (const [key, print] of memory.prints) {
        if (print.at >= beforeMs) continue;
        memory.prints.delete(key);
        this.undo.push(() => memory.prints.set(key, print));
        count++;
      }
      if (count > 0) this.write(id, chunk, Buffer.alloc(0), beforeMs);
      return count;
    });
    try {
      const count = run();
      this.committed();
      return count;
    } catch (error) {
      this.rolledBack();
      throw error;
    }
  }

  /** The transaction committed: memory changes stand; chunks whose log outgrew are snapshotted. */
  committed(): void {
    this.undo = [];
    for (const [id, chunk] of this.touched) {
      const memory = this.chunks.get(id);
      const floor = this.options.minBytes ?? LIVE_SNAPSHOT_MIN_BYTES;
      if (memory !== undefined && memory.logBytes >= Math.max(memory.snapshotBytes, floor)) {
        this.due.set(id, chunk);
      }
    }
    this.touched.clear();
    if (this.due.size > 0 && this.timer === null && !this.closed) {
      this.timer = setImmediate(() => this.snapshotNext());
    }
  }

  /** The transaction rolled back: memory goes back to what the tables hold. */
  rolledBack(): void {
    for (const step of this.undo.reverse()) step();
    this.undo = [];
    this.touched.clear();
  }

  /** Every current record of the kind and game, in one read transaction. */
  load<R>(kind: LiveKind<R>, game: Game): R[] {
    return this.db.transaction(() => {
      this.items.refresh();
      const intern = stringInterner();
      const out: R[] = [];
      for (const [market] of this.s.marketsOf.iterate(kind.name, game, kind.name, game)) {
        const where = intern(market);
        for (const row of chunkRows(this.s, kind, {
          kind: kind.name,
          game,
          market,
        }).rows.values()) {
          out.push(kind.recordOf(row, game, where, this.items.nameOf(kind.codeOf(row))));
        }
      }
      return out;
    })();
  }

  /** Whether any listing or statistic is stored. */
  any(): boolean {
    return this.s.anyRecords.get()?.[0] === 1;
  }

  /** Snapshots every chunk that has log, now. */
  snapshotAll(): void {
    for (const [kind, game, market] of this.s.loggedChunks.all()) {
      this.snapshot({ kind, game, market } as LiveChunk);
    }
    this.due.clear();
  }

  close(): void {
    if (this.closed) return;
    if (this.timer !== null) clearImmediate(this.timer);
    this.timer = null;
    if (this.wrote) this.snapshotAll();
    this.closed = true;
  }

  private snapshotNext(): void {
    this.timer = null;
    const [next] = this.due;
    if (next === undefined || this.closed) return;
    this.due.delete(next[0]);
    try {
      this.snapshot(next[1]);
    } catch (error) {
      this.options.onError(`live log snapshot failed: ${(error as Error).message}`);
    }
    if (this.due.size > 0) this.timer = setImmediate(() => this.snapshotNext());
  }

  private snapshot(chunk: LiveChunk): void {
    this.db.transaction(() => {
      const state = chunkRows(this.s, KINDS[chunk.kind], chunk);
      const blob = encodeRows([...state.rows.values()]);
      this.s.putSnapshot.run(...chunkKey(chunk), state.through, blob);
      this.s.dropLogThrough.run(...chunkKey(chunk), state.through);
      const memory = this.chunks.get(chunkId(chunk));
      if (memory === undefined) return;
      memory.snapshotBytes = blob.length;
      memory.logBytes = 0;
    })();
  }

  private admit<R>(kind: LiveKind<R>, memory: ChunkMemory, row: LiveRow): boolean {
    const key = kind.keyOf(row);
    const at = row[kind.atIndex] as number;
    const sum = contentSum(kind.atIndex, row);
    const held = memory.prints.get(key);
    if (!kind.replaces(held, at, sum)) return false;
    memory.prints.set(key, { at, sum });
    this.undo.push(() =>
      held === undefined ? memory.prints.delete(key) : memory.prints.set(key, held),
    );
    return true;
  }

  private write(id: string, chunk: LiveChunk, blob: Buffer, pruneBefore: number | null): void {
    const logId = this.s.append.run(...chunkKey(chunk), blob, pruneBefore).lastInsertRowid;
    const memory = this.chunks.get(id)!;
    const seqBefore = this.knownSeq;
    memory.logBytes += blob.length;
    this.undo.push(() => {
      this.knownSeq = seqBefore;
      memory.logBytes -= blob.length;
    });
    this.knownSeq = Number(logId);
    this.touched.set(id, chunk);
    this.wrote = true;
  }

  /** Item codes others stored are taken in; fingerprints dropped if another connection logged. */
  private catchUp(): void {
    this.items.refresh();
    const seq = this.s.logSeq.get()?.[0] ?? 0;
    if (seq === this.knownSeq) return;
    this.chunks.clear();
    this.knownSeq = seq;
  }

  private memoryOf(chunk: LiveChunk, id: string): ChunkMemory {
    const held = this.chunks.get(id);
    if (held !== undefined) return held;
    const kind = KINDS[chunk.kind];
    const state = chunkRows(this.s, kind, chunk);
    const prints = new Map<string, Print>();
    for (const [key, row] of state.rows) {
      prints.set(key, { at: row[kind.atIndex] as number, sum: contentSum(kind.atIndex, row) });
    }
    const memory = { prints, snapshotBytes: state.snapshotBytes, logBytes: state.logBytes };
    this.chunks.set(id, memory);
    this.undo.push(() => this.chunks.delete(id));
    return memory;
  }
}

function chunkId(chunk: LiveChunk): string {
  return `${chunk.kind}\n${chunk.game}\n${chunk.market}`;
}
