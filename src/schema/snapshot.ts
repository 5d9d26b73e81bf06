/**
 * The `/v1/schema` body, built once per catalog change: `{schemaVersion, generatedAt, itemCount,
 * items (keyed by market_hash_name), rarities, collections, containers}` (spec "Item schema"),
 * serialized once, gzipped once, ETag = hash of the JSON. Requests are served these bytes.
 * `generatedAt` is the time of the newest version, so every process and every restart serving
 * the same content sends the same bytes and the same ETag.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { PreparedPayload } from '../http/deps.ts';
import type { ChangeLog } from './change-log.ts';
import { servedRecord } from './change-log.ts';
import type { VersionedRecord } from './records.ts';
import type { SchemaRegistries } from './registries.ts';

const gzip = promisify(gzipCallback);

export interface SchemaSnapshotBody extends SchemaRegistries {
  schemaVersion: number;
  generatedAt: string;
  itemCount: number;
  items: Record<string, VersionedRecord>;
}

export function snapshotBody(log: ChangeLog, registries: SchemaRegistries): SchemaSnapshotBody {
  const items: Record<string, VersionedRecord> = {};
  for (const entry of log.latest().values()) {
    if (!entry.removed) items[entry.record.marketHashName] = servedRecord(entry);
  }
  return {
    schemaVersion: log.head(),
    generatedAt: new Date(log.head()).toISOString(),
    itemCount: Object.keys(items).length,
    items,
    ...registries,
  };
}

const SLICE_ITEMS = 2000;

/**
 * The body's JSON, the same text as `JSON.stringify(body)`, written a slice of items at a time
 * with the event loop free between slices.
 */
async function serializeInSlices(body: SchemaSnapshotBody): Promise<Buffer> {
  const { items, ...rest } = body;
  const head = JSON.stringify({
    schemaVersion: body.schemaVersion,
    generatedAt: body.generatedAt,
    itemCount: body.itemCount,
  });
  const tail = JSON.stringify({
    rarities: rest.rarities,
    collections: rest.collections,
    containers: rest.containers,
  });
  const entries = Object.entries(items);
  const parts: string[] = [];
  for (let start = 0; start < entries.length; start += SLICE_ITEMS) {
    const slice = entries.slice(start, start + SLICE_ITEMS);
    parts.push(
      slice.map(([name, record]) => `${JSON.stringify(name)}:${JSON.stringify(record)}`).join(','),
    );
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return Buffer.from(`${head.slice(0, -1)},"items":{${parts.join(',')}},${tail.slice(1)}`);
}

/** JSON + gzip + ETag (a hash of the JSON, so equal content gives an equal ETag). */
export async function prepareSnapshot(
  body: SchemaSnapshotBody,
  builtAt: number,
  gzipLevel = 6,
): Promise<PreparedPayload> {
  const json = await serializeInSlices(body);
  const hash = createHash('sha256').update(json).digest('base64url').slice(0, 27);
  const compressed = await gzip(json, { level: gzipLevel });
  return { etag: `"${hash}"`, json, gzip: compressed, rowCount: body.itemCount, builtAt };
}
