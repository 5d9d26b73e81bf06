/**
 * History answers assembled slice by slice (json-pieces.ts): each slice of at most
 * BUCKETS_PER_SLICE buckets is read, turned into points, serialised with the route's point
 * schema and encoded before the next is read, so even a 10,000-point answer never holds the
 * event loop for long.
 */
import type { FastifyReply } from 'fastify';
import type { HistoryPoint } from '../pricing/rollup-points.ts';
import type { HistoryStore, SeriesKey } from '../store/history-store.ts';
import type { HistoryRequest } from './history-params.ts';
import { historySlices, readSeriesHistory } from './history-reader.ts';
import {
  arrayPieces,
  joinedArray,
  objectPieces,
  rowsSerializer,
  sendPieces,
  type JsonPieces,
  type SerializeRows,
} from './json-pieces.ts';
import { HistoryPoint as HistoryPointSchema } from './schemas/history.ts';

const EMPTY: JsonPieces = { pieces: [Buffer.from('[]')] };

function seriesPoints(
  store: HistoryStore,
  series: SeriesKey,
  request: HistoryRequest,
  serialize: SerializeRows<HistoryPoint>,
): Promise<JsonPieces> {
  const slices = historySlices(request).map(
    (slice) => () => readSeriesHistory(store, series, slice),
  );
  return arrayPieces(slices, serialize);
}

export async function sendHistory(
  reply: FastifyReply,
  store: HistoryStore,
  envelope: object,
  series: SeriesKey,
  request: HistoryRequest,
): Promise<FastifyReply> {
  const serialize = rowsSerializer<HistoryPoint>(reply, HistoryPointSchema);
  const history = await seriesPoints(store, series, request, serialize);
  return sendPieces(reply, objectPieces([...Object.entries(envelope), ['history', history]]));
}

/** One series per market; `readable` says which have stored history (the others are empty). */
export async function sendHistoryByMarket(
  reply: FastifyReply,
  store: HistoryStore,
  envelope: object,
  series: readonly { key: SeriesKey; readable: boolean }[],
  request: HistoryRequest,
): Promise<FastifyReply> {
  const serialize = rowsSerializer<HistoryPoint>(reply, HistoryPointSchema);
  const rows: JsonPieces[] = [];
  for (const { key, readable } of series) {
    const history = readable ? await seriesPoints(store, key, request, serialize) : EMPTY;
    rows.push(
      objectPieces([
        ['market', key.market],
        ['history', history],
      ]),
    );
  }
  return sendPieces(
    reply,
    objectPieces([...Object.entries(envelope), ['series', joinedArray(rows)]]),
  );
}
