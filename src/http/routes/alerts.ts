/**
 * Price alerts with signed webhooks (Pro and up; an extension beyond the read-only interface,
 * docs/api/stream-and-alerts.md): POST /v1/alerts (201, the secret shown once), GET /v1/alerts,
 * GET and DELETE /v1/alerts/:id, GET /v1/alerts/:id/deliveries. CS2 items; each call counts as
 * one request. 503 when the service runs without an alert store.
 */
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { parseMarkets } from '../params.ts';
import { keyGate } from '../plugins/key-gate.ts';
import {
  Alert,
  AlertList,
  AlertParams,
  CreateAlertBody,
  CreatedAlert,
  DeliveriesQuery,
  DeliveryList,
} from '../schemas/alerts.ts';
import { errorResponses, KEY_GATED_ERRORS } from '../schemas/common.ts';
import type { AlertService } from '../../access/alerts/alert-service.ts';
import type { AlertRecord, DeliveryRecord } from '../../access/alerts/alert-store.ts';
import { iso, isoOrNull } from '../../domain/clock.ts';
import { ApiError, badRequest } from '../../domain/errors.ts';
import { PLAN_ALERT_LIMITS } from '../../domain/plans.ts';
import type { ConditionType } from '../../pricing/alert-rules.ts';

export function serveAlert(alert: AlertRecord) {
  return {
    id: alert.id,
    marketHashName: alert.marketHashName,
    canonicalItemId: alert.canonicalItemId,
    condition: alert.condition,
    url: alert.url,
    markets: alert.markets,
    cooldownSeconds: alert.cooldownSeconds,
    createdAt: iso(alert.createdAt),
    lastFiredAt: isoOrNull(alert.memory.lastFiredAt),
  };
}

function serveDelivery(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    status: delivery.status,
    createdAt: iso(delivery.createdAt),
    nextAttemptAt: delivery.status === 'pending' ? iso(delivery.nextAttemptAt) : null,
    attempts: delivery.attempts.map((attempt) => ({ ...attempt, at: iso(attempt.at) })),
  };
}

export function alertsRoutes(app: App, deps: AppDeps): void {
  const service = (): AlertService => {
    if (!deps.alerts) throw new ApiError(503, 'UNAVAILABLE', 'Alerts are not configured');
    return deps.alerts;
  };
  const gate = keyGate(deps, 'alerts', { fixed: 'cs2' });
  const schema = (summary: string, status: number, response: object) => ({
    tags: ['alerts'],
    summary,
    security: [{ ApiKey: [] }],
    response: { [status]: response, ...errorResponses(...KEY_GATED_ERRORS, 503) },
  });

  app.post(
    '/v1/alerts',
    {
      onRequest: gate,
      schema: { ...schema('Create a price alert', 201, CreatedAlert), body: CreateAlertBody },
    },
    async (request, reply) => {
      const body = request.body;
      const item = deps.catalogs.cs2.byName(body.marketHashName);
      if (!item) throw badRequest([`marketHashName ${body.marketHashName} is not a known item`]);
      const selection = parseMarkets(body.markets?.join(','), 'cs2');
      const auth = request.auth!;
      const alert = await service().create({
        accountId: auth.account.id,
        limit: PLAN_ALERT_LIMITS[auth.plan],
        marketHashName: item.marketHashName,
        canonicalItemId: item.id,
        condition: { type: body.condition.type as ConditionType, value: body.condition.value },
        url: body.url,
        markets: selection.markets ? [...selection.markets].sort() : null,
        ...(body.cooldownSeconds === undefined ? {} : { cooldownSeconds: body.cooldownSeconds }),
      });
      reply.code(201);
      return { ...serveAlert(alert), secret: alert.secret };
    },
  );

  app.get(
    '/v1/alerts',
    { onRequest: gate, schema: schema("The account's alerts", 200, AlertList) },
    async (request) => ({
      alerts: (await service().list(request.auth!.account.id)).map(serveAlert),
    }),
  );

  app.get(
    '/v1/alerts/:id',
    { onRequest: gate, schema: { ...schema('One alert', 200, Alert), params: AlertParams } },
    async (request) => serveAlert(await service().get(request.auth!.account.id, request.params.id)),
  );

  app.delete(
    '/v1/alerts/:id',
    { onRequest: gate, schema: { ...schema('Delete an alert', 204, {}), params: AlertParams } },
    async (request, reply) => {
      await service().delete(request.auth!.account.id, request.params.id);
      reply.code(204);
      return reply.send();
    },
  );

  app.get(
    '/v1/alerts/:id/deliveries',
    {
      onRequest: gate,
      schema: {
        ...schema("An alert's webhook deliveries, newest first", 200, DeliveryList),
        params: AlertParams,
        querystring: DeliveriesQuery,
      },
    },
    async (request) => {
      const id = request.params.id;
      const limit = request.query.limit ?? 20;
      const deliveries = await service().deliveries(request.auth!.account.id, id, limit);
      return { alertId: id, deliveries: deliveries.map(serveDelivery) };
    },
  );
}
