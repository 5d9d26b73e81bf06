/**
 * The item page's float / fade / phase buckets: GET /terminal/api/buckets?name= answers one CS2
 * item's latest attribute buckets on every bucket-supplying market, every attribute kind
 * (float bands, fade ranges, Doppler phase tags and phase × float), exactly as
 * /v1/attribute-prices/latest?marketHashName=<name>&attributes=float,fade,tag computes them
 * (latestEnvelope over the app's one AttributeBook). One item per request, no snapshot, no
 * cursor: never a bulk read. CS2 only, as the attribute API.
 */
import { Type } from '@sinclair/typebox';
import { latestEnvelope } from '../attributes/attribute-envelopes.ts';
import type { AttributeBook } from '../attributes/attribute-book.ts';
import { ATTRIBUTES, BUCKET_MARKETS } from '../attributes/buckets.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { App } from '../http/app-type.ts';
import type { AppDeps } from '../http/deps.ts';
import { findItem } from '../http/params.ts';
import { AttributeLatest } from '../http/schemas/attribute-prices.ts';
import { errorResponses } from '../http/schemas/common.ts';
import { sharedAttributeBook } from '../http/shared-attribute-book.ts';
import { DEFAULT_RETENTION } from '../ingest/retention.ts';
import { terminalGate } from './limit.ts';

/** AttributeLatest as served for /latest (the shared envelope's static type also lists history's granularity). */
export const ItemBuckets = Type.Omit(AttributeLatest, ['granularity', 'market']);

const BucketsQuery = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 512, description: 'CS2 market hash name.' }),
});

export function itemBuckets(
  book: AttributeBook,
  catalog: Catalog,
  name: string,
  now: number,
): typeof ItemBuckets.static {
  return latestEnvelope({
    book,
    catalog,
    scope: { markets: [...BUCKET_MARKETS] },
    attributes: new Set(ATTRIBUTES),
    item: findItem(catalog, name),
    now,
    maxAgeMs: DEFAULT_RETENTION.listingsUnseenMs,
  });
}

export function bucketRoutes(app: App, deps: AppDeps): void {
  const book = sharedAttributeBook(app, deps);
  app.get(
    '/terminal/api/buckets',
    {
      onRequest: terminalGate(deps, { game: false }),
      schema: {
        tags: ['terminal'],
        summary: 'Terminal: float / fade / phase buckets of one CS2 item (keyless, per-IP limit)',
        description:
          'As /v1/attribute-prices/latest for one item with attributes=float,fade,tag over every bucket market.',
        querystring: BucketsQuery,
        response: { 200: ItemBuckets, ...errorResponses(400, 404, 429, 500) },
      },
    },
    async (request) => itemBuckets(book, deps.catalogs.cs2, request.query.name, deps.clock.now()),
  );
}
