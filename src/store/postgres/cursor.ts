/**
 * Streams a large read through a server-side cursor: one plan, rows fetched `chunkSize` at a
 * time inside a read-only transaction on a pooled connection of its own, so neither the
 * driver nor the caller holds the whole result (the boot restore of sides and sales).
 */
import { inTransaction, type Pool } from './driver.ts';

export async function forEachChunk<Row>(
  pool: Pool,
  query: { text: string; values?: unknown[] },
  chunkSize: number,
  visit: (rows: Row[]) => void,
): Promise<number> {
  const size = Math.max(1, Math.floor(chunkSize));
  return inTransaction(pool, async (client) => {
    await client.query('SET TRANSACTION READ ONLY');
    await client.query({
      text: `DECLARE chunked NO SCROLL CURSOR FOR ${query.text}`,
      values: query.values,
    });
    let count = 0;
    for (;;) {
      const { rows } = await client.query<Row>({
        text: `FETCH ${size} FROM chunked`,
        rowMode: 'array',
      });
      if (rows.length === 0) break;
      count += rows.length;
      visit(rows);
      if (rows.length < size) break;
    }
    await client.query('CLOSE chunked');
    return count;
  });
}
