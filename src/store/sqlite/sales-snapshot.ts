/**
 * A compact copy of each game's recent sales (one BLOB a game), written by a store that changed
 * the sales when it closes, so that a restart after a clean stop restores them without reading
 * the sales table row by row. Every transaction that inserts a new sale or prunes one deletes
 * its game's copy, so a copy that exists is the table as it was at the close that wrote it; after
 * a kill -9 there is none and the restore reads the table. A copy that does not decode (or does
 * not reach back to the window asked for) is not used: the table is read instead.
 *
 * Layout: varints (unsigned LEB128; signed values zigzagged): format, the window's start,
 * the sales count, the strings (item ids, markets, currencies) each behind its byte length,
 * then per sale, oldest first: item, market and currency as string numbers, the sale time as a
 * delta from the previous one, price, quantity and the ingest time as a delta from the sale.
 */
import type Database from 'better-sqlite3';
import { DAY } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { SaleRecord } from '../../domain/quote.ts';
import type { ChunkVisitor } from '../price-store.ts';
import { unzigzag, zigzag } from '../rollup-codec.ts';
import { ChunkedVisit, type SaleRow } from '../row-decoding.ts';
import { VarintWriter } from '../varint-writer.ts';

/** The sales a copy holds: those sold at most this long before the close that wrote it. */
export const SALES_SNAPSHOT_WINDOW_MS = 90 * DAY;
const FORMAT = 1;

export const SALES_SNAPSHOT_SCHEMA = `
CREATE TABLE sales_snapshot (
  game TEXT PRIMARY KEY,
  entries BLOB NOT NULL
) STRICT, WITHOUT ROWID;
`;

export class SalesSnapshotError extends Error {
  override readonly name = 'SalesSnapshotError';
}

/** Sales decoded into columns: checked whole before any record is built. */
interface SaleColumns {
  sinceMs: number;
  strings: string[];
  /** Per sale: item, market, currency (string numbers), soldAt, price, quantity, ingestedAt. */
  fields: Float64Array;
}
const FIELDS = 7;

export function encodeSales(sinceMs: number, rows: Iterable<SaleRow>): Buffer {
  const strings = new Map<string, number>();
  const body = new VarintWriter(64 * 1024);
  const number = (text: string) => {
    let index = strings.get(text);
    if (index === undefined) strings.set(text, (index = strings.size));
    body.put(index);
  };
  let count = 0;
  let previous = sinceMs;
  for (const [, itemId, market, price, quantity, soldAt, ingestedAt, currency] of rows) {
    number(itemId);
    number(market);
    number(currency);
    body.put(zigzag(soldAt - previous));
    body.put(zigzag(price));
    body.put(zigzag(quantity));
    body.put(zigzag(ingestedAt - soldAt));
    previous = soldAt;
    count += 1;
  }
  const out = new VarintWriter(body.length + 1024);
  out.put(FORMAT);
  out.put(sinceMs);
  out.put(count);
  out.put(strings.size);
  for (const text of strings.keys()) out.putBytes(Buffer.from(text, 'utf8'), true);
  out.putBytes(body.result());
  return Buffer.from(out.result());
}

class Reader {
  private position = 0;
  constructor(private readonly bytes: Uint8Array) {}

  next(): number {
    let value = 0;
    let factor = 1;
    for (;;) {
      const byte = this.bytes[this.position++];
      if (byte === undefined) throw new SalesSnapshotError('truncated sales snapshot');
      value += (byte & 0x7f) * factor;
      if (byte < 128) return value;
      factor *= 128;
    }
  }

  text(): string {
    const length = this.next();
    const end = this.position + length;
    if (end > this.bytes.length) throw new SalesSnapshotError('truncated sales snapshot');
    const text = Buffer.from(
      this.bytes.buffer,
      this.bytes.byteOffset + this.position,
      end - this.position,
    );
    this.position = end;
    return text.toString('utf8');
  }

  string(strings: readonly string[]): number {
    const index = this.next();
    if (index >= strings.length) throw new SalesSnapshotError('sales snapshot string out of range');
    return index;
  }

  end(): void {
    if (this.position !== this.bytes.length)
      throw new SalesSnapshotError('trailing bytes in sales snapshot');
  }
}

export function decodeSales(blob: Uint8Array): SaleColumns {
  const reader = new Reader(blob);
  const format = reader.next();
  if (format !== FORMAT) throw new SalesSnapshotError(`unknown sales snapshot format ${format}`);
  const sinceMs = reader.next();
  const count = reader.next();
  const strings: string[] = [];
  for (let left = reader.next(); left > 0; left--) strings.push(reader.text());
  if (count * FIELDS > blob.length) throw new SalesSnapshotError('sales snapshot count too large');
  const fields = new Float64Array(count * FIELDS);
  let soldAt = sinceMs;
  for (let at = 0; at < fields.length; at += FIELDS) {
    fields[at] = reader.string(strings);
    fields[at + 1] = reader.string(strings);
    fields[at + 2] = reader.string(strings);
    soldAt += unzigzag(reader.next());
    fields[at + 3] = soldAt;
    fields[at + 4] = unzigzag(reader.next());
    fields[at + 5] = unzigzag(reader.next());
    fields[at + 6] = soldAt + unzigzag(reader.next());
  }
  reader.end();
  return { sinceMs, strings, fields };
}

/** Hands the sales sold at or after `sinceMs` to `visit`, `chunkSize` at a time; the count. */
function visitSales(
  game: Game,
  columns: SaleColumns,
  sinceMs: number,
  visit: ChunkVisitor<SaleRecord>,
  chunkSize: number,
): number {
  const { strings, fields } = columns;
  const chunks = new ChunkedVisit(visit, chunkSize);
  for (let at = 0; at < fields.length; at += FIELDS) {
    const soldAt = fields[at + 3]!;
    if (soldAt < sinceMs) continue;
    chunks.push({
      game,
      itemId: strings[fields[at]!]!,
      market: strings[fields[at + 1]!] as MarketId,
      price: fields[at + 4]!,
      quantity: fields[at + 5]!,
      soldAt,
      ingestedAt: fields[at + 6]!,
      originalCurrency: strings[fields[at + 2]!]!,
    });
  }
  return chunks.finish();
}

function prepareSnapshotStatements(db: Database.Database) {
  return {
    select: db
      .prepare<[string], [Buffer]>('SELECT entries FROM sales_snapshot WHERE game = ?')
      .raw(),
    // A WHERE, not a bare DELETE: that would rewrite the empty table's root page every time.
    drop: db.prepare<[string]>('DELETE FROM sales_snapshot WHERE game = ?'),
    put: db.prepare<[string, Buffer]>(
      'INSERT OR REPLACE INTO sales_snapshot (game, entries) VALUES (?, ?)',
    ),
  };
}

export class SalesSnapshots {
  private readonly s: ReturnType<typeof prepareSnapshotStatements>;
  private changedSales = false;

  constructor(
    private readonly db: Database.Database,
    private readonly readSales: (game: Game, sinceMs: number) => Iterable<SaleRow>,
    private readonly onError: (message: string) => void,
  ) {
    this.s = prepareSnapshotStatements(db);
  }

  /** Inside a transaction that inserted or deleted sales of `game`: its copy is stale. */
  changed(game: Game): void {
    this.s.drop.run(game);
    this.changedSales = true;
  }

  /**
   * The game's sales from its copy when there is a usable one; null when there is none (the
   * caller reads the table). A copy that does not decode is reported and left unused.
   */
  stream(
    game: Game,
    sinceMs: number,
    visit: ChunkVisitor<SaleRecord>,
    chunkSize: number,
  ): number | null {
    const blob = this.s.select.get(game)?.[0];
    if (blob === undefined) return null;
    let columns: SaleColumns;
    try {
      columns = decodeSales(blob);
    } catch (error) {
      this.onError(
        `sales snapshot of ${game} unusable, reading the table: ${(error as Error).message}`,
      );
      return null;
    }
    if (columns.sinceMs > sinceMs) return null;
    return visitSales(game, columns, sinceMs, visit, chunkSize);
  }

  /** At close: a store that changed the sales writes each game's copy (a failure is reported). */
  close(games: readonly Game[], nowMs: number): void {
    if (!this.changedSales) return;
    this.changedSales = false;
    const sinceMs = Math.max(0, nowMs - SALES_SNAPSHOT_WINDOW_MS);
    // The first statement writes, so the transaction holds the prices file while it reads.
    const write = this.db.transaction((game: Game) => {
      this.s.drop.run(game);
      this.s.put.run(game, encodeSales(sinceMs, this.readSales(game, sinceMs)));
    });
    try {
      for (const game of games) write(game);
    } catch (error) {
      this.onError(`sales snapshot not written: ${(error as Error).message}`);
    }
  }
}
