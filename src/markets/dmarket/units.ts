/**
 * DMarket's game ids and the units every DMarket observation carries: integer US cents
 * (sources in `connector.ts`).
 */
import type { Game } from '../../domain/games.ts';
import type { ParseContext } from '../connector.ts';
import { observationBase } from '../formats/bulk-asks.ts';

export const GAME_ID: Readonly<Record<Game, string>> = { cs2: 'a8db', rust: 'rust' };
export const CURRENCY = 'USD';
export const SCALE = 100;

export const PUBLIC_KEY_ENV = 'PRICING_DMARKET_PUBLIC_KEY';
export const SECRET_KEY_ENV = 'PRICING_DMARKET_SECRET_KEY';

export const base = observationBase('dmarket', CURRENCY, SCALE);

/** The requested item name a per-item request carries in its meta, if any. */
export function metaTitle(ctx: ParseContext): string | null {
  const title = ctx.request.meta?.title;
  return typeof title === 'string' && title !== '' ? title : null;
}
