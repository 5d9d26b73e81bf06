/**
 * The `/v1/schema` body, built once per catalog change: `{schemaVersion, generatedAt, itemCount,
 * items (keyed by market_hash_name), rarities, collections, containers}` (spec "Item schema"),
 * gathered and serialized a slice at a time (`Slicer`) into a `PayloadWriter` (JSON, gzip and
 * ETag = hash of the JSON, src/domain/prepared-payload.ts). Requests are served these bytes.
 * `generatedAt` is the time of the newest version, so every process and every restart serving
 * the same content sends the same bytes and the same ETag.
 */
import { PayloadWriter, type PreparedPayload } from '../domain/prepared-payload.ts';
import { Slicer } from '../domain/slicer.ts';
import type { ChangeLog } from './change-log.ts';
import { servedRecord } from './change-log.ts';
import type { VersionedRecord } from './records.ts';
import type { SchemaRegistries } from './registries.ts';

export interface SchemaSnapshotBody extends SchemaRegistries {
  schemaVersion: number;
  generatedAt: string;
  itemCount: number;
  items: Record<string, VersionedRecord>;
}

/** The body of the log's live items, gathered with the event loop free between slices. */
export async function snapshotBody(
  log: ChangeLog,
  registries: SchemaRegistries,
): Promise<SchemaSnapshotBody> {
  const slicer = new Slicer();
  const head = log.head();
  const items: Record<string, VersionedRecord> = {};
  let itemCount = 0;
  for (const entry of [...log.latest().values()]) {
    if (!entry.removed) {
      const name = entry.record.marketHashName;
      if (!(name in items)) itemCount += 1;
      items[name] = servedRecord(entry);
    }
    if (slicer.due()) await slicer.pause();
  }
  return {
    schemaVersion: head,
    generatedAt: new Date(head).toISOString(),
    itemCount,
    items,
    ...registries,
  };
}

/**
 * JSON (the same text as `JSON.stringify(body)`) + gzip + ETag (a hash of the JSON, so equal
 * content gives an equal ETag), written an item at a time with the event loop free between
 * slices.
 */
export async function prepareSnapshot(
  body: SchemaSnapshotBody,
  builtAt: number,
  gzipLevel?: number,
): Promise<PreparedPayload> {
  const { schemaVersion, generatedAt, itemCount, rarities, collections, containers } = body;
  const writer = new PayloadWriter(gzipLevel);
  const slicer = new Slicer();
  const head = JSON.stringify({ schemaVersion, generatedAt, itemCount });
  writer.write(`${head.slice(0, -1)},"items":{`);
  let first = true;
  for (const name in body.items) {
    writer.write(`${first ? '' : ','}${JSON.stringify(name)}:${JSON.stringify(body.items[name])}`);
    first = false;
    if (slicer.due()) await slicer.pause();
  }
  writer.write(`},${JSON.stringify({ rarities, collections, containers }).slice(1)}`);
  return { ...(await writer.finish(slicer)), rowCount: itemCount, builtAt };
}
