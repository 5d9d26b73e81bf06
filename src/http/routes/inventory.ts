/**
 * The inventory routes (Pro and up; a fetch counts as one request, and each account may start
 * a bounded number of fetches per hour): POST /v1/inventory/fetch and /fetch/advanced answer a
 * PENDING snapshot at once; GET /v1/inventory/snapshot/:id (with `valuation` once COMPLETED),
 * /:id/status, /:id/valuation and /v1/inventory/history/:steamId. 503 when the service runs
 * without an inventory source.
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { errorResponses, KEY_GATED_ERRORS } from '../schemas/common.ts';
import {
  FetchAdvancedBody,
  FetchBody,
  History,
  HistoryParams,
  HistoryQuery,
  Snapshot,
  SnapshotParams,
  SnapshotStatus,
  Valuation,
} from '../schemas/inventory.ts';
import { iso } from '../../domain/clock.ts';
import { ApiError, badRequest, notFound } from '../../domain/errors.ts';
import {
  CS2_APP_ID,
  DEFAULT_CONTEXT_ID,
  type InventoryRequest,
  type InventorySnapshot,
} from '../../domain/inventory.ts';
import { DEFAULT_FEE_MODEL } from '../../markets/fees.ts';
import { gameOfApp, type InventoryService } from '../../inventory/service.ts';
import { valueInventory, type InventoryValuation } from '../../inventory/valuation.ts';
import { LIQUIDITY_MARKETS } from '../../liquidity/markets.ts';

const DEFAULT_INSPECTIONS = 100;

interface FetchInput {
  targetSteamId: string;
  appId?: number;
  contextId?: number;
  tradableOnly?: boolean;
  maxInspections?: number;
}

function statusOf(snapshot: InventorySnapshot) {
  return {
    id: snapshot.id,
    status: snapshot.status,
    ...(snapshot.itemCount === null ? {} : { itemCount: snapshot.itemCount }),
    ...(snapshot.inspectedCount === null ? {} : { inspectedCount: snapshot.inspectedCount }),
    ...(snapshot.unresolvedCount === null ? {} : { unresolvedCount: snapshot.unresolvedCount }),
    ...(snapshot.error === null ? {} : { error: snapshot.error }),
  };
}

function summaryOf(snapshot: InventorySnapshot) {
  return {
    ...statusOf(snapshot),
    targetSteamId: snapshot.targetSteamId,
    appId: snapshot.appId,
    contextId: snapshot.contextId,
    createdAt: iso(snapshot.createdAt),
    ...(snapshot.completedAt === null ? {} : { completedAt: iso(snapshot.completedAt) }),
  };
}

export function serveValuation(valuation: InventoryValuation) {
  return { ...valuation, calculatedAt: iso(valuation.calculatedAt) };
}

export function inventoryRoutes(app: App, deps: AppDeps): void {
  const feeModel = deps.feeModel ?? DEFAULT_FEE_MODEL;
  const service = (): InventoryService => {
    if (!deps.inventory)
      throw new ApiError(503, 'UNAVAILABLE', 'Inventory fetches are not configured');
    return deps.inventory;
  };
  const snapshotOf = async (id: string) => {
    const snapshot = await service().get(id);
    if (!snapshot) throw notFound('No inventory snapshot with this id');
    return snapshot;
  };
  const valuationOf = (snapshot: InventorySnapshot) => {
    const game = gameOfApp(snapshot.appId);
    const catalog = deps.catalogs[game];
    return valueInventory(snapshot.items ?? [], {
      book: deps.book,
      game,
      byId: (id) => catalog.byId(id),
      feeModel,
      markets: LIQUIDITY_MARKETS[game],
      now: deps.clock.now(),
    });
  };
  const start = async (request: FastifyRequest, body: FetchInput, advanced: boolean) => {
    const input: InventoryRequest = {
      targetSteamId: body.targetSteamId,
      appId: body.appId ?? CS2_APP_ID,
      contextId: body.contextId ?? DEFAULT_CONTEXT_ID,
      tradableOnly: body.tradableOnly ?? false,
      maxInspections: advanced ? (body.maxInspections ?? DEFAULT_INSPECTIONS) : 0,
    };
    return summaryOf(await service().request(request.auth!.account.id, input));
  };
  const gate = keyGate(deps, 'inventory', { fixed: 'cs2' });
  const schema = (summary: string, description: string, response: object) => ({
    tags: ['inventory'],
    summary,
    description,
    security: [{ ApiKey: [] }],
    response: { 200: response, ...errorResponses(...KEY_GATED_ERRORS, 503) },
  });

  app.post(
    '/v1/inventory/fetch',
    {
      onRequest: gate,
      schema: {
        ...schema(
          'Fetch a Steam inventory',
          'Stores a snapshot and answers it PENDING at once; the fetch runs after the answer. Poll /v1/inventory/snapshot/{id}/status.',
          Snapshot,
        ),
        body: FetchBody,
      },
    },
    async (request) => start(request, request.body, false),
  );

  app.post(
    '/v1/inventory/fetch/advanced',
    {
      onRequest: gate,
      schema: {
        ...schema(
          'Fetch a CS2 inventory with float, seed and stickers',
          'As fetch, CS2 only; fills floatValue, paintSeed, stickers and inspectedAt from what the inventory response itself carries (never a game client, never a Steam login).',
          Snapshot,
        ),
        body: FetchAdvancedBody,
      },
    },
    async (request) => {
      if (request.body.appId !== undefined && request.body.appId !== CS2_APP_ID) {
        throw badRequest(['appId must be 730 (advanced fetches are CS2 only)']);
      }
      return start(request, request.body, true);
    },
  );

  app.get(
    '/v1/inventory/snapshot/:id',
    {
      onRequest: gate,
      schema: {
        ...schema(
          'An inventory snapshot',
          'The snapshot with its items, and its valuation priced now once it is COMPLETED.',
          Snapshot,
        ),
        params: SnapshotParams,
      },
    },
    async (request) => {
      const snapshot = await snapshotOf(request.params.id);
      if (snapshot.status !== 'COMPLETED') return summaryOf(snapshot);
      return {
        ...summaryOf(snapshot),
        items: snapshot.items ?? [],
        valuation: serveValuation(valuationOf(snapshot)),
      };
    },
  );

  app.get(
    '/v1/inventory/snapshot/:id/status',
    {
      onRequest: gate,
      schema: {
        ...schema('An inventory snapshot status', 'Status, counts and error only.', SnapshotStatus),
        params: SnapshotParams,
      },
    },
    async (request) => statusOf(await snapshotOf(request.params.id)),
  );

  app.get(
    '/v1/inventory/snapshot/:id/valuation',
    {
      onRequest: gate,
      schema: {
        ...schema(
          'An inventory valued now',
          'Per item best ask, best cash bid net of fees, suggested price and liquidity; totals list value, instant cash, wallet value and the best cash market. 404 until the snapshot is COMPLETED.',
          Valuation,
        ),
        params: SnapshotParams,
      },
    },
    async (request) => {
      const snapshot = await snapshotOf(request.params.id);
      if (snapshot.status !== 'COMPLETED') {
        throw notFound(`The snapshot is ${snapshot.status}; valuations exist once it is COMPLETED`);
      }
      return serveValuation(valuationOf(snapshot));
    },
  );

  app.get(
    '/v1/inventory/history/:steamId',
    {
      onRequest: gate,
      schema: {
        ...schema("A Steam ID's inventory snapshots", 'Newest first, without items.', History),
        params: HistoryParams,
        querystring: HistoryQuery,
      },
    },
    async (request) => {
      const { limit = 10, offset = 0 } = request.query;
      const page = await service().history(request.params.steamId, limit, offset);
      return { snapshots: page.snapshots.map(summaryOf), total: page.total };
    },
  );
}
