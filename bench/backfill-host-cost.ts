/**
 * Probe: what a backfill chunk costs the HTTP thread. Builds the first 12 chunks of the popular
 * band (a day × 10 items each) as the worker normalises them, then for each chunk: structured
 * clone (v8 serialize, as postMessage does), and on the receiving side deserialize + Book.apply
 * of its message parts with the book index, attribute book and items/all cache listening, on a
 * book that already holds newer ("live") sides of those items. CPU of the receiving side,
 * whole chunks against `newestSides` chunks, alternating. Usage: node --import tsx this [rounds]
 */
import { deserialize, serialize } from 'node:v8';
import { Book } from '../src/book/book.ts';
import { loadCatalogs } from '../src/catalog/index.ts';
import { indexBook } from '../src/http/book-index.ts';
import { AttributeBook } from '../src/attributes/attribute-book.ts';
import { ItemsAllCache } from '../src/http/items-all-cache.ts';
import { simBackfill } from '../src/markets/sim/backfill.ts';
import { normalise } from '../src/ingest/normalise.ts';
import { DEFAULT_FX } from '../src/ingest/fx.ts';
import { newestSides, splitBatch } from '../src/boot/ingest-thread/messages.ts';
import type { IngestBatch } from '../src/domain/quote.ts';

const HOUR = 3_600_000;
const catalogs = loadCatalogs();
const now = Date.now();
const toMs = now - HOUR;
const chunks: IngestBatch[] = [];
for (const observations of simBackfill({
  seed: 42,
  catalogs,
  fromMs: toMs - 7 * 24 * HOUR,
  toMs,
  stepMs: HOUR,
  itemLimit: 150,
  cover: 'popular',
  stepsPerChunk: 24,
  itemsPerChunk: 10,
})) {
  chunks.push(normalise(observations, { catalogs, fx: DEFAULT_FX, now }).batch);
  if (chunks.length >= 12) break;
}
/** Live sides: the newest side of every chunk key, an hour later. */
const live = chunks.flatMap((chunk) =>
  newestSides(chunk).sides.map((side) => ({ ...side, fetchedAt: now, ingestedAt: now })),
);

function receive(cut: boolean) {
  const book = new Book();
  book.apply({ sides: live, sales: [], listings: [] });
  const { close } = indexBook(book, catalogs, 500);
  const attributes = new AttributeBook(book, catalogs.cs2);
  const clock = { now: () => Date.now() };
  const itemsAll = new ItemsAllCache({ book, catalog: catalogs.cs2, clock, minIntervalMs: 1e9 });
  const messages = chunks.flatMap((chunk) =>
    splitBatch(cut ? newestSides(chunk) : chunk).map((part) => serialize(part)),
  );
  const start = process.cpuUsage();
  for (const message of messages) book.apply(deserialize(message) as IngestBatch);
  const used = process.cpuUsage(start);
  close();
  attributes.close();
  itemsAll.close();
  return {
    ms: (used.user + used.system) / 1000,
    messages: messages.length,
    bytes: messages.reduce((n, m) => n + m.length, 0),
  };
}
const rounds = Number(process.argv[2] ?? 3);
receive(false);
receive(true);
for (let round = 0; round < rounds; round += 1) {
  for (const cut of [false, true]) {
    const r = receive(cut);
    console.log(
      `${cut ? 'newest sides' : 'whole chunks'}: ${chunks.length} chunks, ${r.messages} messages, ${(r.bytes / 1e6).toFixed(1)} MB, HTTP-side CPU ${r.ms.toFixed(0)} ms (${(r.ms / chunks.length).toFixed(1)} ms a chunk)`,
    );
  }
}
