/**
 * The item schema: GET /v1/schema, /v1/schema/items/:idOrName, /v1/schema/changes (cs2) and
 * their /v2 forms with `game`. The snapshot is served as pre-built bytes with an ETag
 * (`If-None-Match` → 304, gzip when accepted, 503 + Retry-After until the first build); single
 * items and change pages are read from the in-memory log. Plan: Developer and up.
 */
import { Type, type TProperties } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.ts';
import type { Game } from '../../domain/games.ts';
import { CHANGES_LIMIT, readChanges, type ChangesQuery } from '../../schema/changes-feed.ts';
import { servedRecord } from '../../schema/change-log.ts';
import { findSchemaEntry, type SchemaProvider } from '../../schema/provider.ts';
import { referencedBy } from '../../schema/registries.ts';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { keyGate, type GameSource } from '../plugins/key-gate.ts';
import { errorResponses, GameQuery, KEY_GATED_ERRORS } from '../schemas/common.ts';
import { SchemaChanges, SchemaItem, SchemaSnapshot } from '../schemas/schema.ts';
import { NOT_READY_RETRY_SECONDS, sendPrepared } from './items-all.ts';

const ItemParams = Type.Object({
  idOrName: Type.String({
    description: 'Canonical id, URL-encoded market hash name, or slug.',
  }),
});

const ChangesFields = {
  since: Type.Optional(
    Type.String({
      description:
        'Millisecond epoch (the stored schemaVersion) or ISO 8601; required unless cursor is given.',
    }),
  ),
  cursor: Type.Optional(
    Type.String({ description: "The previous page's nextCursor; takes precedence over since." }),
  ),
  limit: Type.Integer({
    minimum: CHANGES_LIMIT.min,
    maximum: CHANGES_LIMIT.max,
    default: CHANGES_LIMIT.default,
    description: 'Items per page.',
  }),
};

function notReady(): ApiError {
  return new ApiError(503, 'NOT_READY', 'The item schema is not built yet; retry later', {
    'Retry-After': NOT_READY_RETRY_SECONDS,
  });
}

function provider(deps: AppDeps): SchemaProvider {
  if (!deps.schema) throw notReady();
  return deps.schema;
}

function serveSnapshot(deps: AppDeps, request: FastifyRequest, reply: FastifyReply) {
  const payload = provider(deps).snapshot(request.game);
  if (!payload) throw notReady();
  return sendPrepared(request, reply, payload);
}

function readItem(deps: AppDeps, game: Game, selector: string) {
  const schema = provider(deps);
  if (!schema.snapshot(game)) throw notReady();
  const log = schema.log(game);
  const item = servedRecord(findSchemaEntry(log, selector));
  return {
    schemaVersion: log.head(),
    item,
    registries: referencedBy(schema.registries(game), [item]),
  };
}

function readChangePage(deps: AppDeps, game: Game, query: ChangesQuery) {
  const schema = provider(deps);
  const secret = schema.cursorSecret();
  if (!secret || !schema.snapshot(game)) throw notReady();
  return readChanges(secret, game, schema.log(game), schema.registries(game), query);
}

export function schemaRoutes(app: App, deps: AppDeps): void {
  for (const version of ['v1', 'v2'] as const) {
    const source: GameSource = version === 'v1' ? { fixed: 'cs2' } : 'query';
    const scope = version === 'v1' ? 'cs2' : 'game-scoped';
    const gameField: TProperties = version === 'v1' ? {} : { game: GameQuery };
    const snapshot = async (request: FastifyRequest, reply: FastifyReply) =>
      serveSnapshot(deps, request, reply);
    const common = { tags: ['schema'], security: [{ ApiKey: [] }] };

    app.get(
      `/${version}/schema`,
      {
        onRequest: keyGate(deps, 'schema', source),
        schema: {
          ...common,
          summary: `Item schema snapshot (${scope})`,
          description:
            'Every item and the three registries, pre-built once per catalog change. ETag; If-None-Match → 304; gzip when accepted; 503 with Retry-After until the first build.',
          querystring: Type.Object(gameField),
          response: {
            200: SchemaSnapshot,
            304: { description: 'Not modified', type: 'null' },
            ...errorResponses(...KEY_GATED_ERRORS, 503),
          },
        },
      },
      snapshot,
    );

    app.get(
      `/${version}/schema/items/:idOrName`,
      {
        onRequest: keyGate(deps, 'schema', source),
        schema: {
          ...common,
          summary: `One item schema record (${scope})`,
          description:
            'By canonical id (removed items too, with removed: true), exact name or slug; registries hold only the entries the item references. 409 when a slug or case-insensitive name matches several items.',
          params: ItemParams,
          querystring: Type.Object(gameField),
          response: { 200: SchemaItem, ...errorResponses(...KEY_GATED_ERRORS, 409, 503) },
        },
      },
      async (request) => readItem(deps, request.game, request.params.idOrName),
    );

    app.get(
      `/${version}/schema/changes`,
      {
        onRequest: keyGate(deps, 'schema', source),
        schema: {
          ...common,
          summary: `Item schema changes (${scope})`,
          description:
            'Items added, changed or removed strictly after since, oldest first; follow nextCursor until hasMore is false, then store schemaVersion as the next since. Cursors are bound to their game.',
          querystring: Type.Object({ ...gameField, ...ChangesFields }),
          response: { 200: SchemaChanges, ...errorResponses(...KEY_GATED_ERRORS, 503) },
        },
      },
      async (request) => readChangePage(deps, request.game, request.query as ChangesQuery),
    );
  }
}
