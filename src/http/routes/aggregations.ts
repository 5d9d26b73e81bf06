/**
 * GET /v1/aggregations/min-prices and /v1/aggregations/max-orders (cs2 only, snake_case).
 * Items come from `marketHashNames` (CSV of exact names or canonical ids) and/or `ids` (CSV of
 * canonical ids), split on `,` and trimmed, blank entries ignored; at most 100 entries in total.
 * Unresolved entries are dropped silently, an item named twice is answered once (first
 * position), and when nothing resolves the answer is 400. `markets` filters the rows.
 */
import { Type, type TArray, type TObject } from '@sinclair/typebox';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { parseMarkets } from '../params.ts';
import {
  arrayPieces,
  mappedSlices,
  objectPieces,
  rowsSerializer,
  sendPieces,
} from '../json-pieces.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { errorResponses, KEY_GATED_ERRORS, MarketsQuery } from '../schemas/common.ts';
import { MaxOrders, MinPrices } from '../schemas/aggregation.ts';
import type { MarketSides } from '../../book/book.ts';
import type { Catalog } from '../../catalog/catalog.ts';
import { badRequest } from '../../domain/errors.ts';
import type { CatalogItem } from '../../domain/item.ts';
import { maxOrdersItem, minPricesItem } from '../../pricing/aggregations.ts';
import type { MarketSelection } from '../../pricing/top-of-book.ts';

export const MAX_AGGREGATION_ITEMS = 100;
export const ITEMS_REQUIRED_MESSAGE = 'marketHashNames or ids is required';
export const TOO_MANY_ITEMS_MESSAGE = `marketHashNames and ids must list no more than ${MAX_AGGREGATION_ITEMS} items in total`;
export const NONE_RESOLVED_MESSAGE = 'none of the requested items could be resolved';

interface AggregationQuery {
  marketHashNames?: string;
  ids?: string;
  markets?: string;
}

const Query = Type.Object({
  marketHashNames: Type.Optional(
    Type.String({
      description: `Comma-separated market hash names or canonical ids (split on ","), at most ${MAX_AGGREGATION_ITEMS}.`,
    }),
  ),
  ids: Type.Optional(Type.String({ description: 'Comma-separated canonical ids.' })),
  markets: Type.Optional(MarketsQuery),
});

function csv(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/** The distinct items named by the query, in request order (names first, then ids). */
export function requestedItems(catalog: Catalog, query: AggregationQuery): CatalogItem[] {
  const names = csv(query.marketHashNames);
  const ids = csv(query.ids);
  if (names.length + ids.length === 0) throw badRequest([ITEMS_REQUIRED_MESSAGE]);
  if (names.length + ids.length > MAX_AGGREGATION_ITEMS) throw badRequest([TOO_MANY_ITEMS_MESSAGE]);
  const found = new Map<string, CatalogItem>();
  const keep = (item: CatalogItem | undefined) => {
    if (item && !found.has(item.id)) found.set(item.id, item);
  };
  for (const name of names) keep(catalog.resolve(name));
  for (const id of ids) keep(catalog.byId(id));
  if (found.size === 0) throw badRequest([NONE_RESOLVED_MESSAGE]);
  return [...found.values()];
}

/** A response `{items: [row, …]}`. */
type RowsSchema = TObject<{ items: TArray }>;

type ItemRow = (
  item: CatalogItem,
  sides: readonly MarketSides[],
  selection: MarketSelection,
  now: number,
) => unknown;

export function aggregationsRoutes(app: App, deps: AppDeps): void {
  const route = (path: string, summary: string, response: RowsSchema, itemRow: ItemRow) => {
    app.get(
      path,
      {
        onRequest: keyGate(deps, 'aggregations', { fixed: 'cs2' }),
        schema: {
          tags: ['aggregations'],
          summary,
          description:
            'Batch read of up to 100 items. Unresolved names are dropped; 400 when none resolves. Stale quotes are kept with is_stale true. Match results by name, not position.',
          security: [{ ApiKey: [] }],
          querystring: Query,
          response: { 200: response, ...errorResponses(...KEY_GATED_ERRORS) },
        },
      },
      async (request, reply) => {
        const query = request.query as AggregationQuery;
        const selection = parseMarkets(query.markets, 'cs2');
        const items = requestedItems(deps.catalogs.cs2, query);
        const now = deps.clock.now();
        const rows = mappedSlices(items, (item) =>
          itemRow(item, deps.book.sides('cs2', item.id), selection, now),
        );
        const serialize = rowsSerializer(reply, response.properties.items.items);
        return sendPieces(reply, objectPieces([['items', await arrayPieces(rows, serialize)]]));
      },
    );
  };
  route(
    '/v1/aggregations/min-prices',
    'Best ask per market for up to 100 items (cs2)',
    MinPrices,
    minPricesItem,
  );
  route(
    '/v1/aggregations/max-orders',
    'Best bid per market for up to 100 items (cs2)',
    MaxOrders,
    maxOrdersItem,
  );
}
