/**
 * Price alerts in a serving process: the alert store, the engine that fires alerts on book
 * changes, and the webhook deliverer polling for due deliveries every second; alerts made elsewhere
 * (another process, `pricing alerts`) are taken every 10 s. Every API process
 * runs all three; the store makes one process fire each alert and one send each attempt.
 */
import type { Logger } from 'pino';
import { AlertEngine } from '../access/alerts/alert-engine.ts';
import { AlertService } from '../access/alerts/alert-service.ts';
import { WebhookDeliverer } from '../access/alerts/webhook-deliverer.ts';
import { WebhookSender } from '../access/alerts/webhook-sender.ts';
import type { Book } from '../book/book.ts';
import type { Clock } from '../domain/clock.ts';
import type { FeeModel } from '../markets/fees.ts';
import type { ServeConfig } from '../config.ts';
import { createAlertStore } from './stores.ts';

export const DELIVERY_POLL_MS = 1000;
/** Alerts created or deleted by another process or the CLI are taken this often. */
export const ALERT_REFRESH_MS = 10_000;

export async function startAlerts(
  config: ServeConfig,
  clock: Clock,
  book: Book,
  feeModel: FeeModel,
  logger: Logger,
) {
  const store = createAlertStore(config, clock);
  await store.init();
  const onError = (error: unknown) => logger.error({ err: error }, 'alert store write failed');
  const engine = new AlertEngine({ store, book, clock, feeModel, onError });
  await engine.start();
  const sender = new WebhookSender(config.webhooksAllowPrivate);
  const deliverer = new WebhookDeliverer(store, sender, clock);
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = deliverer
      .runOnce()
      .catch((error: unknown) => logger.error({ err: error }, 'webhook delivery failed'))
      .finally(() => (running = null));
  }, DELIVERY_POLL_MS);
  timer.unref();
  const refresher = setInterval(() => {
    engine.refresh().catch((error: unknown) => logger.warn({ err: error }, 'alert refresh failed'));
  }, ALERT_REFRESH_MS);
  refresher.unref();
  const service = new AlertService({
    store,
    engine,
    clock,
    allowPrivate: config.webhooksAllowPrivate,
  });
  return {
    service,
    async close() {
      clearInterval(timer);
      clearInterval(refresher);
      engine.stop();
      await running;
      await engine.settled();
      await sender.close();
      await store.close();
    },
  };
}
