/**
 * Attribute buckets (CS2, /v1 only): GET /v1/attribute-prices/latest and /history across the
 * bucket-supplying markets, and GET /v1/markets/:market/latest and /history for the native
 * market (buff163; any other market id there is 404). Latest reads come from the in-memory
 * AttributeBook, kept current as batches reach the book; history from the HistoryStore port.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { findItem, parseMarkets } from '../params.ts';
import { keyGate } from '../plugins/key-gate.ts';
import {
  AttributeHistory,
  AttributeLatest,
  NativeHistory,
  NativeLatest,
} from '../schemas/attribute-prices.ts';
import { errorResponses, KEY_GATED_ERRORS, MarketsQuery, StringEnum } from '../schemas/common.ts';
import { historyStore } from './history.ts';
import { sendPrepared } from './items-all.ts';
import { PreparedPages } from '../prepared-pages.ts';
import { sharedAttributeBook } from '../shared-attribute-book.ts';
import {
  historyEnvelope,
  latestEnvelope,
  type Scope,
} from '../../attributes/attribute-envelopes.ts';
import {
  decodeCursor,
  parseAttributes,
  parseBucketIds,
  parseWindow,
} from '../../attributes/attribute-query.ts';
import { BUCKET_MARKETS } from '../../attributes/buckets.ts';
import { prepareSnapshotPage } from '../../attributes/snapshot-page.ts';
import { badRequest, notFound } from '../../domain/errors.ts';
import { NATIVE_MARKET_ID, type MarketId } from '../../domain/markets.ts';
import { DEFAULT_RETENTION } from '../../ingest/retention.ts';
import { TIERS, type Tier } from '../../pricing/rollup-buckets.ts';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
/**
 * A snapshot page is built again at most this often while buckets change (they change as
 * listing markets are polled, every minute or more), and kept while they do not.
 */
export const SNAPSHOT_PAGE_INTERVAL_MS = 10_000;
/** Snapshot pages kept, JSON and gzip together; the least recently read go first. */
const SNAPSHOT_PAGES_MAX_BYTES = 32 * 1024 * 1024;

const latestFields = {
  marketHashName: Type.Optional(Type.String({ description: 'One item by exact name.' })),
  canonicalItemId: Type.Optional(Type.String({ description: 'One item by canonical id.' })),
  attributes: Type.Optional(
    Type.String({ description: 'CSV of float, fade, tag (default float).' }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }),
  cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page.' })),
};

const historyFields = {
  bucketId: Type.Optional(Type.String()),
  bucketIds: Type.Optional(Type.String({ description: 'CSV of bucket ids (at most 20).' })),
  granularity: Type.Optional(StringEnum(TIERS, '10m, 1h or 1d (default by window).')),
  from: Type.Optional(Type.String({ description: 'ISO 8601 or now-7d; default to − 7 days.' })),
  to: Type.Optional(Type.String({ description: 'ISO 8601 or now; default now.' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 10_000, description: 'Newest points kept per bucket.' }),
  ),
};

const MarketParams = Type.Object({
  market: Type.String({ description: 'The native market: buff163.' }),
});

interface LatestQuery {
  marketHashName?: string;
  canonicalItemId?: string;
  attributes?: string;
  limit: number;
  cursor?: string;
  markets?: string;
}

interface HistoryQuery {
  bucketId?: string;
  bucketIds?: string;
  /** Checked against TIERS by the schema. */
  granularity?: unknown;
  from?: string;
  to?: string;
  limit?: number;
}

/**
 * Snapshot pages run to megabytes of nested buckets: JSON.stringify serialises them several
 * times faster than the schema-compiled serializer (the schema still documents them).
 */
const plainJson = () => (data: unknown) => JSON.stringify(data);

const schema = (summary: string, description: string, response: unknown) => ({
  tags: ['attributes'],
  summary,
  description,
  security: [{ ApiKey: [] }],
  response: { 200: response, ...errorResponses(...KEY_GATED_ERRORS, 503) },
});

function requestedMarkets(raw: string | undefined): MarketId[] {
  const selection = parseMarkets(raw, 'cs2');
  return selection.markets ? [...selection.markets] : [...BUCKET_MARKETS];
}

function nativeMarket(market: string): MarketId {
  if (market !== NATIVE_MARKET_ID) throw notFound();
  return NATIVE_MARKET_ID;
}

export function attributePricesRoutes(app: App, deps: AppDeps): void {
  const book = sharedAttributeBook(app, deps);
  const catalog = deps.catalogs.cs2;

  const pages = new PreparedPages({
    clock: deps.clock,
    version: () => book.version(),
    minIntervalMs: SNAPSHOT_PAGE_INTERVAL_MS,
    maxBytes: SNAPSHOT_PAGES_MAX_BYTES,
  });

  const latest = async (request: FastifyRequest, reply: FastifyReply, scope: Scope) => {
    const query = request.query as LatestQuery;
    const attributes = parseAttributes(query.attributes);
    const after = decodeCursor(query.cursor);
    const name = query.marketHashName ?? query.canonicalItemId;
    const maxAgeMs = DEFAULT_RETENTION.listingsUnseenMs;
    const base = { book, catalog, scope, attributes, maxAgeMs };
    if (name !== undefined) {
      const item = findItem(catalog, name);
      return latestEnvelope({ ...base, item, now: deps.clock.now() });
    }
    const key = JSON.stringify([scope, [...attributes].sort(), after, query.limit]);
    const page = await pages.page(key, () =>
      prepareSnapshotPage({ ...base, after, limit: query.limit, now: deps.clock.now() }),
    );
    return sendPrepared(request, reply, page);
  };

  const history = async (query: HistoryQuery, scope: Scope | null) => {
    const buckets = parseBucketIds(query.bucketId, query.bucketIds);
    const now = deps.clock.now();
    const window = parseWindow(
      { ...query, granularity: query.granularity as Tier | undefined },
      now,
    );
    const store = historyStore(deps);
    if (scope && 'market' in scope && buckets.some((bucket) => bucket.market !== scope.market)) {
      throw badRequest([`bucketId must name ${scope.market} buckets on this route`]);
    }
    const markets = [...new Set(buckets.map((bucket) => bucket.market))];
    const limit = query.limit ?? null;
    return historyEnvelope({
      store,
      catalog,
      scope: scope ?? { markets },
      buckets,
      window,
      now,
      limit,
    });
  };

  app.get(
    '/v1/attribute-prices/latest',
    {
      onRequest: keyGate(deps, 'attribute_prices', { fixed: 'cs2' }),
      serializerCompiler: plainJson,
      schema: {
        ...schema(
          'Latest attribute buckets (cs2)',
          'Float, fade and phase buckets per market for one item (marketHashName or canonicalItemId) or, without one, a snapshot of every item paged by cursor. `attributes` chooses the bucket kinds (default float only); requested markets without coverage are listed in sourceGaps.',
          AttributeLatest,
        ),
        querystring: Type.Object({ ...latestFields, markets: Type.Optional(MarketsQuery) }),
      },
    },
    async (request, reply) =>
      latest(request, reply, { markets: requestedMarkets(request.query.markets) }),
  );

  app.get(
    '/v1/attribute-prices/history',
    {
      onRequest: keyGate(deps, 'attribute_history', { fixed: 'cs2' }),
      schema: {
        ...schema(
          'Attribute bucket history (cs2)',
          'OHLC of each bucket ask per 10m, 1h or 1d, oldest first. Default window: the last 7 days; a window over 10,000 buckets is refused.',
          AttributeHistory,
        ),
        querystring: Type.Object(historyFields),
      },
    },
    async (request) => history(request.query, null),
  );

  app.get(
    '/v1/markets/:market/latest',
    {
      onRequest: keyGate(deps, 'native_market', { fixed: 'cs2' }),
      serializerCompiler: plainJson,
      schema: {
        ...schema(
          'Native market buckets (buff163)',
          "Buff163's own float bands, fade and phase buckets; the attribute envelope with a single market. Other market ids: 404.",
          NativeLatest,
        ),
        params: MarketParams,
        querystring: Type.Object(latestFields),
      },
    },
    async (request, reply) =>
      latest(request, reply, { market: nativeMarket(request.params.market) }),
  );

  app.get(
    '/v1/markets/:market/history',
    {
      onRequest: keyGate(deps, 'native_market', { fixed: 'cs2' }),
      schema: {
        ...schema(
          'Native market bucket history (buff163)',
          'History of buff163 buckets, same points as /v1/attribute-prices/history. Other market ids: 404.',
          NativeHistory,
        ),
        params: MarketParams,
        querystring: Type.Object(historyFields),
      },
    },
    async (request) => history(request.query, { market: nativeMarket(request.params.market) }),
  );
}
