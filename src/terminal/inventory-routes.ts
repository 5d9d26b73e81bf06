/**
 * The terminal's keyless inventory page reads (per-IP limit):
 * - POST /terminal/api/inventory `{steamId, game?}` — starts a fetch of that Steam ID's public
 *   inventory through the inventory service and answers the PENDING snapshot at once. The fetch
 *   is made for the account `terminal:<hash of the client IP>`, so the per-account limit on
 *   fetches per hour holds per IP; its Steam requests count against the keyless share of the
 *   Steam source's budget (keyed fetches keep the rest), and the source's cache serves it too;
 * - GET /terminal/api/inventory/:id — the snapshot as GET /v1/inventory/snapshot/:id serves it:
 *   the status, then the items and the valuation priced now once COMPLETED.
 */
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { CS2_APP_ID, DEFAULT_CONTEXT_ID, RUST_APP_ID } from '../domain/inventory.ts';
import type { App } from '../http/app-type.ts';
import type { AppDeps } from '../http/deps.ts';
import {
  inventoryService,
  snapshotBody,
  storedSnapshot,
  summaryOf,
} from '../http/inventory-view.ts';
import { errorResponses } from '../http/schemas/common.ts';
import { Snapshot, SnapshotParams, SteamId } from '../http/schemas/inventory.ts';
import { terminalGate } from './limit.ts';

const ERRORS = errorResponses(400, 404, 429, 500, 503);

export const TerminalFetchBody = Type.Object(
  {
    steamId: SteamId,
    game: Type.Optional(Type.Union([Type.Literal('cs2'), Type.Literal('rust')])),
  },
  { additionalProperties: false },
);

export function terminalAccountOf(ip: string): string {
  return `terminal:${createHash('sha256').update(ip).digest('base64url').slice(0, 16)}`;
}

export function inventoryRoutes(app: App, deps: AppDeps): void {
  const gate = terminalGate(deps, { game: false });

  app.post(
    '/terminal/api/inventory',
    {
      onRequest: gate,
      schema: {
        tags: ['terminal'],
        summary: 'Terminal: start valuing a Steam inventory (keyless, per-IP limit)',
        description:
          'Answers the PENDING snapshot at once; read it with GET /terminal/api/inventory/{id}.',
        body: TerminalFetchBody,
        response: { 200: Snapshot, ...ERRORS },
      },
    },
    async (request) => {
      const { steamId, game = 'cs2' } = request.body;
      const target = {
        targetSteamId: steamId,
        appId: game === 'rust' ? RUST_APP_ID : CS2_APP_ID,
        contextId: DEFAULT_CONTEXT_ID,
        tradableOnly: false,
        maxInspections: 0,
      };
      const account = terminalAccountOf(request.ip);
      const snapshot = await inventoryService(deps).request(account, target, { keyless: true });
      return summaryOf(snapshot);
    },
  );

  app.get(
    '/terminal/api/inventory/:id',
    {
      onRequest: gate,
      schema: {
        tags: ['terminal'],
        summary: 'Terminal: an inventory snapshot and its valuation (keyless, per-IP limit)',
        params: SnapshotParams,
        response: { 200: Snapshot, ...ERRORS },
      },
    },
    async (request) => snapshotBody(deps, await storedSnapshot(deps, request.params.id)),
  );
}
