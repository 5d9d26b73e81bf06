/**
 * What the alert routes and the `pricing alerts` commands do: create an alert (URL checked for
 * SSRF, per-plan cap, secret generated and shown once), list, read, delete, and read an alert's
 * deliveries; keeps the engine's in-memory alerts in step. Errors are ApiErrors: 400 bad input, 403 past the plan's cap, 404.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../domain/clock.ts';
import { ApiError, badRequest, notFound } from '../../domain/errors.ts';
import {
  conditionValueProblem,
  DEFAULT_COOLDOWN_SECONDS,
  FRESH_MEMORY,
  type AlertCondition,
} from '../../pricing/alert-rules.ts';
import type { AlertEngine } from './alert-engine.ts';
import type { AlertRecord, AlertStore, DeliveryRecord } from './alert-store.ts';
import { newWebhookSecret } from './signature.ts';
import { webhookUrlProblem, type Resolve } from './webhook-target.ts';

export interface NewAlertInput {
  accountId: string;
  /** Most alerts the account may hold (its plan's cap). */
  limit: number;
  marketHashName: string;
  canonicalItemId: string;
  condition: AlertCondition;
  url: string;
  markets: string[] | null;
  cooldownSeconds?: number;
}

export interface AlertServiceOptions {
  store: AlertStore;
  engine: AlertEngine | null;
  clock: Clock;
  allowPrivate: boolean;
  resolve?: Resolve;
}

export class AlertService {
  constructor(private readonly options: AlertServiceOptions) {}

  get allowPrivate(): boolean {
    return this.options.allowPrivate;
  }

  async create(input: NewAlertInput): Promise<AlertRecord> {
    const { store, clock, allowPrivate, resolve } = this.options;
    const problems = [
      conditionValueProblem(input.condition),
      await webhookUrlProblem(input.url, allowPrivate, resolve),
    ].filter((problem): problem is string => problem !== null);
    if (problems.length > 0) throw badRequest(problems);
    if ((await store.countAlerts(input.accountId)) >= input.limit) {
      throw new ApiError(
        403,
        'FEATURE_NOT_AVAILABLE',
        `Your plan allows at most ${input.limit} alerts; delete one first`,
      );
    }
    const alert: AlertRecord = {
      id: `alt_${randomBytes(12).toString('hex')}`,
      accountId: input.accountId,
      marketHashName: input.marketHashName,
      canonicalItemId: input.canonicalItemId,
      condition: input.condition,
      url: input.url,
      markets: input.markets,
      cooldownSeconds: input.cooldownSeconds ?? DEFAULT_COOLDOWN_SECONDS,
      secret: newWebhookSecret(),
      createdAt: clock.now(),
      memory: FRESH_MEMORY,
    };
    await store.createAlert(alert);
    this.options.engine?.add(alert);
    return alert;
  }

  list(accountId: string): Promise<AlertRecord[]> {
    return this.options.store.listAlerts(accountId);
  }

  /** The account's alert, or 404 (another account's alert is not found either). */
  async get(accountId: string, id: string): Promise<AlertRecord> {
    const alert = await this.options.store.getAlert(id);
    if (!alert || alert.accountId !== accountId) throw notFound('No alert with this id');
    return alert;
  }

  async delete(accountId: string, id: string): Promise<void> {
    const alert = await this.get(accountId, id);
    await this.options.store.deleteAlert(id);
    this.options.engine?.remove(alert);
  }

  async deliveries(accountId: string, id: string, limit: number): Promise<DeliveryRecord[]> {
    await this.get(accountId, id);
    return this.options.store.listDeliveries(id, limit);
  }
}
