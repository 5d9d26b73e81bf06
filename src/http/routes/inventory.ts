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
import { badRequest, notFound } from '../../domain/errors.ts';
import { CS2_APP_ID, DEFAULT_CONTEXT_ID, type InventoryRequest } from '../../domain/inventory.ts';
import {
  inventoryService,
  serveValuation,
  snapshotBody,
  statusOf,
  storedSnapshot,
  summaryOf,
  valuationOf,
} from '../inventory-view.ts';

const DEFAULT_INSPECTIONS = 100;

interface FetchInput {
  targetSteamId: string;
  appId?: number;
  contextId?: number;
  tradableOnly?: boolean;
  maxInspections?: number;
}

export function inventoryRoutes(app: App, deps: AppDeps): void {
  const service = () => inventoryService(deps);
  const snapshotOf = (id: string) => storedSnapshot(deps, id);
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
      return snapshotBody(deps, await snapshotOf(request.params.id));
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
      return serveValuation(valuationOf(deps, snapshot));
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
