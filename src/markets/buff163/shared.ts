/**
 * What every Buff163 parser shares: the units (CNY decimal strings read as fen), the
 * `{code, data, msg}` envelope Buff wraps every answer in (errors arrive as HTTP 200 with
 * `code` other than "OK"), the memory keys the parsers and the planner agree on, and the
 * Doppler phase handling (Buff sells one goods per Steam name; each listing's paint index
 * tells its phase).
 */
import type { Game } from '../../domain/games.ts';
import type { ObservationBase } from '../../domain/observation.ts';
import type { PageResult, ParseContext } from '../connector.ts';
import { isRecord, malformedBody, readCount } from '../formats/common.ts';
import { decimalPrice } from '../formats/prices.ts';
import { phaseOfPaintIndex, withPhase } from '../naming.ts';

export const CURRENCY = 'CNY';
export const SCALE = 100;
export const readCny = decimalPrice(SCALE);
export const SESSION_ENV = 'PRICING_BUFF163_SESSION';

/** Memory keys (one adapter memory per market; Buff is CS2-only). */
export const memoryKey = {
  nextPage: 'next_page',
  goodsId: (name: string) => `goods_id:${name}`,
  sellNum: (goodsId: string | number) => `sell_num:${goodsId}`,
  lastSale: (goodsId: string | number) => `last_sale:${goodsId}`,
  lookedUp: (name: string) => `looked_up:${name}`,
};

export function base(game: Game, item: string): ObservationBase {
  return { game, market: 'buff163', item, currency: CURRENCY, scale: SCALE };
}

const ERROR_HINTS: Readonly<Record<string, string>> = {
  'Login Required': `the session cookie in ${SESSION_ENV} is missing or expired; log in to buff.163.com and copy the new "session" cookie`,
  'Captcha Validate Required':
    'Buff wants a captcha solved for this session (risk control after too many requests); it stays blocked until someone solves it in a browser',
};

function errorText(body: Record<string, unknown>): string {
  const text = [body.msg, body.error].find((value) => typeof value === 'string' && value !== '');
  return typeof text === 'string' ? ` (${text})` : '';
}

export type Envelope =
  { ok: true; data: Record<string, unknown> } | { ok: false; page: PageResult };

/** `data` of an OK answer, else one `malformed` rejection saying what Buff answered. */
export function openEnvelope(body: unknown): Envelope {
  if (!isRecord(body)) return { ok: false, page: malformedBody('body is not an object') };
  if (body.code !== 'OK') {
    const code = typeof body.code === 'string' ? body.code : JSON.stringify(body.code);
    const hint = ERROR_HINTS[code];
    const detail = `Buff answered code ${JSON.stringify(code)}${errorText(body)}${hint ? `: ${hint}` : ''}`;
    const kind = hint ? 'auth' : 'parse';
    return { ok: false, page: { observations: [], rejected: [], failure: { kind, detail } } };
  }
  if (!isRecord(body.data)) return { ok: false, page: malformedBody('no data object') };
  return { ok: true, data: body.data };
}

export function itemsOf(data: Record<string, unknown>): unknown[] | null {
  return Array.isArray(data.items) ? data.items : null;
}

/** The phase label of a listing's paint index when the item is a Doppler, else null. */
export function phaseFor(name: string, paintIndex: unknown): string | null {
  const label = phaseOfPaintIndex(readCount(paintIndex));
  return label !== null && withPhase(name, label) !== name ? label : null;
}

/** The name a single asset trades under: the Steam name, with its Doppler phase spliced in. */
export function assetName(name: string, paintIndex: unknown): string {
  const phase = phaseFor(name, paintIndex);
  return phase === null ? name : withPhase(name, phase);
}

const SPLICED_PHASE =
  /^(.*\| (?:Gamma )?Doppler) (?:Phase [1-4]|Ruby|Sapphire|Black Pearl|Emerald)( \([^()]+\))?$/;

/** Our phase-spliced catalog names back to the Steam name Buff lists the goods under. */
export function steamName(name: string): string {
  const match = SPLICED_PHASE.exec(name);
  return match ? `${match[1]}${match[2] ?? ''}` : name;
}

/** The Steam name Buff gives the goods in `data.goods_infos[goods_id]`, else the asked one. */
export function goodsName(data: Record<string, unknown>, ctx: ParseContext): string {
  const asked = String(ctx.request.meta?.name ?? '');
  const infos = data.goods_infos;
  const info = isRecord(infos) ? infos[String(ctx.request.meta?.goods_id)] : undefined;
  const named = isRecord(info) ? info.market_hash_name : undefined;
  return typeof named === 'string' && named.trim() !== '' ? named : asked;
}
