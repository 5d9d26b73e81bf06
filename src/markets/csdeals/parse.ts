/**
 * CS.Deals response parsers: the `{success, response}` envelope every IPricing method answers
 * with, the lowest-price list (one ask per name) and the multi-item sales history (single
 * sales). Facts and sources: the module comment of ./connector.ts.
 */
import type { PageResult, ParseContext } from '../connector.ts';
import {
  askRows,
  namedRows,
  observationBase,
  type AskRow,
  type RowNaming,
} from '../formats/bulk-asks.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readName,
  readSale,
  readUnixSeconds,
  type Read,
} from '../formats/common.ts';
import { decimalPrice } from '../formats/prices.ts';
import { withPhase } from '../naming.ts';

export const CURRENCY = 'USD';
export const SCALE = 100;
const readPrice = decimalPrice(SCALE);

const base = observationBase('csdeals', CURRENCY, SCALE);

/** Rows named by `field`, with a `phase` spliced in when a row carries one. */
function named(label: string, field: string): RowNaming {
  const name = (row: Record<string, unknown>): string | null => {
    const read = readName(row[field]);
    return read === null ? null : withPhase(read, row.phase);
  };
  return { label, noName: `no ${field}`, name };
}

const ITEMS = named('item', 'marketname');
const HISTORY = named('history', 'name');

type Envelope = { ok: true; response: unknown } | { ok: false; result: PageResult };

function envelope(body: unknown): Envelope {
  if (!isRecord(body)) return { ok: false, result: malformedBody('expected {success, response}') };
  if (body.success !== true) {
    const said = body.error ?? body.message ?? body.success;
    return { ok: false, result: malformedBody(`success is not true: ${JSON.stringify(said)}`) };
  }
  return { ok: true, response: body.response };
}

/**
 * Sample: {"success":true,"response":{"time_updated":1795521000,"appid":730,
 * "items":[{"marketname":"AK-47 | Redline (Field-Tested)","lowest_price":"12.34"}]}}
 */
export function parseLowestPrices(body: unknown, ctx: ParseContext): PageResult {
  const read = envelope(body);
  if (!read.ok) return read.result;
  const response = read.response;
  if (!isRecord(response) || !Array.isArray(response.items)) {
    return malformedBody('response is not {time_updated, appid, items: [...]}');
  }
  const asked = ctx.request.query?.appid;
  if (
    asked !== undefined &&
    response.appid !== undefined &&
    String(response.appid) !== String(asked)
  ) {
    return malformedBody(`appid ${JSON.stringify(response.appid)}, asked ${String(asked)}`);
  }
  const time = { at: readUnixSeconds(response.time_updated), kind: 'time_updated' };
  const ask = (row: Record<string, unknown>): Read<AskRow> => ({
    ok: true,
    value: { price: row.lowest_price, count: null, time },
  });
  return askRows(response.items, { ...ITEMS, base, price: readPrice, ask }, ctx);
}

const ZONED_ISO = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
/** Above this a number is taken for milliseconds, below for seconds (year 5138 in seconds). */
const MS_THRESHOLD = 1e11;

/** Sale time as ms epoch: unix seconds (number or digit string), ms, or a zoned ISO string. */
export function readSaleTime(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+(?:\.\d+)?$/.test(value) ? Number(value) : value;
  if (typeof number === 'number') {
    if (!Number.isFinite(number) || number < 0) return null;
    return number >= MS_THRESHOLD ? Math.round(number) : readUnixSeconds(number);
  }
  if (typeof number === 'string' && ZONED_ISO.test(number.trim())) {
    const at = Date.parse(number.trim().replace(' ', 'T'));
    return Number.isFinite(at) ? at : null;
  }
  return null;
}

/**
 * Sample: {"success":true,"response":[{"name":"Revolution Case","appid":730,
 * "sales":[{"time":1795510000,"price":"0.52"}]}]}
 */
export function parseSalesHistory(body: unknown, ctx: ParseContext): PageResult {
  const read = envelope(body);
  if (!read.ok) return read.result;
  if (!Array.isArray(read.response)) return malformedBody('response is not an array of items');
  const out = new ResultBuilder();
  namedRows(out, read.response, HISTORY, (row, name) => {
    if (!Array.isArray(row.sales)) {
      return out.reject({ reason: 'malformed', detail: 'sales is not an array' }, name);
    }
    row.sales.forEach((sale, at) => {
      const where = `${name} sale ${at}`;
      if (!isRecord(sale)) {
        return out.reject({ reason: 'malformed', detail: 'not {time, price}' }, where);
      }
      out.add(
        readSale(base(ctx, name), sale.price, undefined, readSaleTime(sale.time), readPrice),
        where,
      );
    });
  });
  return out.result();
}
