/**
 * The parameters of a price stream: `items` (CSV of names or canonical ids, each URL-encoded
 * on its own, so a comma inside a name travels as %2C; read from the raw query for that
 * reason), `markets`, `events` and the resume point (`Last-Event-ID` header or `lastEventId`).
 */
import type { Catalog } from '../../catalog/catalog.ts';
import { badRequest } from '../../domain/errors.ts';
import { sentence } from '../../domain/parameter-sentences.ts';
import { STREAM_EVENT_TYPES, type StreamEventType } from './hub.ts';
import type { WatchedItem } from './watch.ts';

/** The raw (still encoded) value of the last `name=` in a URL's query, or undefined. */
export function rawQueryValue(url: string, name: string): string | undefined {
  const query = url.split('?', 2)[1];
  if (query === undefined) return undefined;
  let found: string | undefined;
  for (const pair of query.split('&')) {
    const at = pair.indexOf('=');
    const key = at < 0 ? pair : pair.slice(0, at);
    if (key === name) found = at < 0 ? '' : pair.slice(at + 1);
  }
  return found;
}

function decodePart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' ')).trim();
  } catch {
    throw badRequest([sentence.mustBe('items', 'a list of URL-encoded names or ids')]);
  }
}

/** The named items, de-duplicated in request order; 400 naming the unknown ones or past `limit`. */
export function parseStreamItems(
  raw: string | undefined,
  catalog: Catalog,
  limit: number,
): WatchedItem[] {
  if (raw === undefined) throw badRequest([sentence.required('items')]);
  const names = raw
    .split(',')
    .map(decodePart)
    .filter((name) => name.length > 0);
  if (names.length === 0) throw badRequest([sentence.notEmpty('items')]);
  const unknown: string[] = [];
  const items = new Map<string, WatchedItem>();
  for (const name of names) {
    const item = catalog.resolve(name);
    if (!item) unknown.push(name);
    else items.set(item.id, { id: item.id, marketHashName: item.marketHashName });
  }
  if (unknown.length > 0) {
    throw badRequest([`items contains unknown names or ids: ${unknown.join(', ')}`]);
  }
  if (items.size > limit) {
    throw badRequest([`items must not name more than ${limit} items on this plan`]);
  }
  return [...items.values()];
}

export function parseStreamEvents(raw: string | undefined): Set<StreamEventType> {
  if (raw === undefined) return new Set(['nbbo']);
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  if (names.length === 0) throw badRequest([sentence.notEmpty('events')]);
  const valid = STREAM_EVENT_TYPES as readonly string[];
  if (names.some((name) => !valid.includes(name))) {
    throw badRequest([sentence.oneOf('events', STREAM_EVENT_TYPES)]);
  }
  return new Set(names as StreamEventType[]);
}

/** The resume point: the header wins over the query; 400 unless a non-negative integer. */
export function parseLastEventId(header: unknown, query: string | undefined): number | null {
  const text = typeof header === 'string' && header.length > 0 ? header : query;
  if (text === undefined || text === '') return null;
  const value = /^[0-9]{1,16}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(value)) {
    throw badRequest([sentence.mustBe('Last-Event-ID', 'an event id (an integer)')]);
  }
  return value;
}
