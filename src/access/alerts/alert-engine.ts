/**
 * Evaluates the stored alerts on every book change (CS2 items), the way the price stream finds
 * top-of-book changes: for each alert of a changed item, the `/v1/nbbo` body under the alert's
 * market selection. A firing is stored with its delivery before anything is sent; of several API
 * processes seeing the same change, one stores it (AlertStore.recordFiring). Store writes run in
 * order on one chain; `settled()` waits for them (tests, shutdown).
 */
import { randomBytes } from 'node:crypto';
import type { Book } from '../../book/book.ts';
import { iso, type Clock } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { FeeModel } from '../../markets/fees.ts';
import { evaluateAlert, type AlertMemory } from '../../pricing/alert-rules.ts';
import { computeNbbo, type Nbbo } from '../../pricing/nbbo.ts';
import { ALL_MARKETS, type MarketSelection } from '../../pricing/top-of-book.ts';
import type { AlertRecord, AlertStore } from './alert-store.ts';

export const ALERT_GAME = 'cs2';

export interface AlertEngineOptions {
  store: AlertStore;
  book: Book;
  clock: Clock;
  feeModel: FeeModel;
  onError?: (error: unknown) => void;
}

export function newEventId(): string {
  return `evt_${randomBytes(12).toString('hex')}`;
}

export function selectionOf(alert: AlertRecord): MarketSelection {
  return alert.markets ? { markets: new Set(alert.markets as MarketId[]) } : ALL_MARKETS;
}

export function deliveryBody(alert: AlertRecord, id: string, now: number, nbbo: Nbbo): string {
  return JSON.stringify({
    id,
    alertId: alert.id,
    type: 'alert.fired',
    firedAt: iso(now),
    marketHashName: alert.marketHashName,
    canonicalItemId: alert.canonicalItemId,
    condition: alert.condition,
    nbbo,
  });
}

export class AlertEngine {
  private readonly byItem = new Map<string, Map<string, AlertRecord>>();
  private chain: Promise<void> = Promise.resolve();
  private stopListening: (() => void) | null = null;

  constructor(private readonly options: AlertEngineOptions) {}

  /** Loads every stored alert and starts listening to the book. */
  async start(): Promise<void> {
    for (const alert of await this.options.store.allAlerts()) this.add(alert);
    this.stopListening = this.options.book.onChange((change) => {
      if (change.game !== ALERT_GAME) return;
      for (const itemId of change.itemIds) this.evaluateItem(itemId);
    });
  }

  /**
   * Takes alerts created or deleted elsewhere (another API process, the CLI); the memory of an
   * alert already held is kept (its firings are reconciled by recordFiring).
   */
  async refresh(): Promise<void> {
    const stored = await this.options.store.allAlerts();
    const ids = new Set(stored.map((alert) => alert.id));
    for (const alerts of [...this.byItem.values()]) {
      for (const alert of [...alerts.values()]) if (!ids.has(alert.id)) this.remove(alert);
    }
    for (const alert of stored) {
      if (!this.byItem.get(alert.canonicalItemId)?.has(alert.id)) this.add(alert);
    }
  }

  add(alert: AlertRecord): void {
    const alerts = this.byItem.get(alert.canonicalItemId) ?? new Map<string, AlertRecord>();
    alerts.set(alert.id, alert);
    this.byItem.set(alert.canonicalItemId, alerts);
  }

  remove(alert: Pick<AlertRecord, 'id' | 'canonicalItemId'>): void {
    const alerts = this.byItem.get(alert.canonicalItemId);
    alerts?.delete(alert.id);
    if (alerts?.size === 0) this.byItem.delete(alert.canonicalItemId);
  }

  /** Resolves once every store write queued so far has finished. */
  settled(): Promise<void> {
    return this.chain;
  }

  stop(): void {
    this.stopListening?.();
    this.stopListening = null;
  }

  private evaluateItem(itemId: string): void {
    const alerts = this.byItem.get(itemId);
    if (!alerts) return;
    const { book, clock, feeModel } = this.options;
    const now = clock.now();
    const sides = book.sides(ALERT_GAME, itemId);
    for (const alert of alerts.values()) {
      const item = { id: alert.canonicalItemId, marketHashName: alert.marketHashName };
      const nbbo = computeNbbo(item, sides, selectionOf(alert), feeModel, now);
      const top = {
        bestAsk: nbbo.bestAsk?.price ?? null,
        bestBid: nbbo.bestBid?.price ?? null,
        spreadBps: nbbo.spreadBps,
      };
      const before = alert.memory;
      const result = evaluateAlert(alert.condition, alert.cooldownSeconds, before, top, now);
      if (result.memory === before) continue;
      alert.memory = result.memory;
      if (result.fired) this.queueFiring(alert, before, nbbo, now);
      else this.queue(() => this.options.store.saveMemory(alert.id, result.memory));
    }
  }

  private queueFiring(alert: AlertRecord, before: AlertMemory, nbbo: Nbbo, now: number): void {
    const id = newEventId();
    const delivery = {
      id,
      alertId: alert.id,
      body: deliveryBody(alert, id, now, nbbo),
      createdAt: now,
    };
    this.queue(async () => {
      const stored = await this.options.store.recordFiring(
        alert.id,
        before.lastFiredAt,
        alert.memory,
        delivery,
      );
      if (!stored) await this.reload(alert);
    });
  }

  /** Another process fired first (or the alert is gone): take the stored state. */
  private async reload(alert: AlertRecord): Promise<void> {
    const stored = await this.options.store.getAlert(alert.id);
    if (!stored) this.remove(alert);
    else alert.memory = stored.memory;
  }

  private queue(work: () => Promise<unknown>): void {
    this.chain = this.chain.then(work).then(
      () => undefined,
      (error: unknown) => this.options.onError?.(error),
    );
  }
}
