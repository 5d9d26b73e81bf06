/**
 * The free web terminal, served by the service itself: the page and its assets at / and the
 * keyless, per-IP-limited JSON routes under /terminal/api/ that the page reads. Added to buildApp's
 * route sets by boot (http-front.ts) unless the operator turned it off (`--no-terminal`).
 */
import type { App } from '../http/app-type.ts';
import type { BookViews } from '../http/book-views.ts';
import type { AppDeps } from '../http/deps.ts';
import { boardRoutes } from './board-routes.ts';
import { bucketRoutes } from './buckets.ts';
import { inventoryRoutes } from './inventory-routes.ts';
import { itemRoutes } from './item-routes.ts';
import { staticRoutes } from './static-routes.ts';
import { terminalStreamRoutes } from './stream-routes.ts';

export async function terminalRoutes(app: App, deps: AppDeps, views: BookViews): Promise<void> {
  await staticRoutes(app);
  itemRoutes(app, deps, views);
  boardRoutes(app, deps, views);
  bucketRoutes(app, deps);
  terminalStreamRoutes(app, deps);
  inventoryRoutes(app, deps);
}
