/**
 * Large JSON answers (an items page, a batch aggregation, a long history) assembled from byte
 * pieces: rows are built, serialised with the route's own schema and encoded a slice at a time,
 * with a turn of the event loop between slices, and the answer is joined with one copy at the
 * end, so one large answer never holds the loop for long. The JSON is the one the response
 * schema would produce. The rows of one answer may come from book states a batch apart; each
 * row is consistent in itself.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import { Type, type TSchema } from '@sinclair/typebox';

/** JSON text as byte pieces, in order. */
export interface JsonPieces {
  readonly pieces: readonly Buffer[];
}
export type SerializeRows<R> = (rows: R[]) => string;

/** Rows built, serialised and encoded between two turns of the event loop. */
export const ROWS_PER_SLICE = 20;

const COMMA = Buffer.from(',');

/** A serialiser for arrays of `row`, compiled once per route and schema. */
export function rowsSerializer<R>(reply: FastifyReply, row: TSchema): SerializeRows<R> {
  return reply.compileSerializationSchema(arrayOf(row)) as unknown as SerializeRows<R>;
}

const arrays = new WeakMap<TSchema, TSchema>();

function arrayOf(row: TSchema): TSchema {
  let array = arrays.get(row);
  if (!array) arrays.set(row, (array = Type.Array(row)));
  return array;
}

/** One JSON array of the rows of every batch, each batch built when the previous is encoded. */
export async function arrayPieces<R>(
  batches: Iterable<() => Promise<R[]> | R[]>,
  serialize: SerializeRows<R>,
): Promise<JsonPieces> {
  const pieces: Buffer[] = [Buffer.from('[')];
  let first = true;
  for (const batch of batches) {
    const rows = await batch();
    if (rows.length > 0) {
      if (!first) pieces.push(COMMA);
      pieces.push(Buffer.from(serialize(rows).slice(1, -1)));
      first = false;
    }
    await nextTurn();
  }
  pieces.push(Buffer.from(']'));
  return { pieces };
}

/** JSON array of already assembled values. */
export function joinedArray(values: readonly JsonPieces[]): JsonPieces {
  const pieces: Buffer[] = [Buffer.from('[')];
  values.forEach((value, index) => {
    if (index > 0) pieces.push(COMMA);
    pieces.push(...value.pieces);
  });
  pieces.push(Buffer.from(']'));
  return { pieces };
}

/** `items` mapped to rows, ROWS_PER_SLICE at a time. */
export function mappedSlices<T, R>(items: readonly T[], map: (item: T) => R): (() => R[])[] {
  const batches: (() => R[])[] = [];
  for (let start = 0; start < items.length; start += ROWS_PER_SLICE) {
    batches.push(() => items.slice(start, start + ROWS_PER_SLICE).map(map));
  }
  return batches;
}

function isPieces(value: unknown): value is JsonPieces {
  return typeof value === 'object' && value !== null && 'pieces' in value;
}

/** A JSON object of `fields` in order; assembled values as they are, others stringified. */
export function objectPieces(fields: readonly (readonly [string, unknown])[]): JsonPieces {
  if (fields.length === 0) return { pieces: [Buffer.from('{}')] };
  const pieces: Buffer[] = [];
  fields.forEach(([name, value], index) => {
    pieces.push(Buffer.from(`${index === 0 ? '{' : ','}${JSON.stringify(name)}:`));
    if (isPieces(value)) pieces.push(...value.pieces);
    else pieces.push(Buffer.from(JSON.stringify(value)));
  });
  pieces.push(Buffer.from('}'));
  return { pieces };
}

export function sendPieces(reply: FastifyReply, json: JsonPieces): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(Buffer.concat(json.pieces));
}
