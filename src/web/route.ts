/**
 * The terminal's views by URL hash: `#/`, `#/item/<game>/<name>`, `#/markets/<game>`,
 * `#/arbitrage`, `#/inventory` and `#/inventory/<snapshot id>`.
 */
import type { Game } from './api.ts';

export type Route =
  | { view: 'home' }
  | { view: 'item'; game: Game; name: string }
  | { view: 'markets'; game: Game }
  | { view: 'arbitrage' }
  | { view: 'inventory'; snapshotId: string | null };

function asGame(value: string | undefined): Game {
  return value === 'rust' ? 'rust' : 'cs2';
}

export function parseRoute(hash: string): Route {
  const [, view, game, ...rest] = hash.replace(/^#/, '').split('/');
  if (view === 'item' && rest.length > 0) {
    return { view: 'item', game: asGame(game), name: decodeURIComponent(rest.join('/')) };
  }
  if (view === 'markets') return { view: 'markets', game: asGame(game) };
  if (view === 'arbitrage') return { view: 'arbitrage' };
  if (view === 'inventory') {
    return { view: 'inventory', snapshotId: game ? decodeURIComponent(game) : null };
  }
  return { view: 'home' };
}
