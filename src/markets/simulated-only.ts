/**
 * The markets without a usable public API (docs/markets.md) are simulated only: no upstream
 * shape exists to copy, so their simulated answers share one made-up export, written and read
 * here: `{currency, generated_at, items: [{market_hash_name, price, count, listings?}]}`, USD
 * decimal strings, the listings (where the market has them) with float, seed and paint index.
 */
import type { ObservationBase } from '../domain/observation.ts';
import type { PageResult, ParseContext } from './connector.ts';
import {
  askWithCount,
  nameField,
  namedRows,
  addAsk,
  observationBase,
} from './formats/bulk-asks.ts';
import {
  ResultBuilder,
  malformedBody,
  isRecord,
  readListing,
  readUnixSeconds,
} from './formats/common.ts';
import { decimalPrice } from './formats/prices.ts';
import type { MarketDefinition } from './market-definition.ts';
import type { MarketInfo } from './market-adapter.ts';
import type { SimListing } from './sim/listings.ts';
import type { SimProfile, SimSnapshot } from './sim/sim-market.ts';
import { BULK_LIST, decimalString, unixSeconds } from './sim/wire.ts';

const KIND = 'export';
const ROWS = nameField('item', 'market_hash_name');

function readListings(
  out: ResultBuilder,
  raw: unknown,
  ctx: ParseContext,
  base: ObservationBase,
  scale: number,
): void {
  if (!Array.isArray(raw)) return;
  for (const entry of raw) {
    const row = isRecord(entry) ? entry : {};
    const fields = {
      id: row.id,
      price: row.price,
      floatValue: row.float,
      paintSeed: row.paint_seed,
      paintIndex: row.paint_index,
      phase: row.phase,
      inspectLink: row.inspect_link,
      stickers: row.stickers,
    };
    out.add(readListing(base, fields, decimalPrice(scale), ctx.now), `${base.item} listing`);
  }
}

function exportParser(info: MarketInfo) {
  const base = observationBase(info.id, info.currency, info.scale);
  const price = decimalPrice(info.scale);
  return (body: unknown, ctx: ParseContext): PageResult => {
    if (!isRecord(body) || !Array.isArray(body.items))
      return malformedBody('expected {items: [...]}');
    if (body.currency !== info.currency) {
      const detail = `currency ${JSON.stringify(body.currency)}, expected ${info.currency}`;
      return { observations: [], rejected: [{ reason: 'wrong_unit', detail }] };
    }
    const time = { at: readUnixSeconds(body.generated_at), kind: 'generated_at' };
    const out = new ResultBuilder();
    namedRows(out, body.items, ROWS, (row, name) => {
      const ask = askWithCount(row.price, row.count, 'count');
      const read = addAsk(
        out,
        { base, price },
        name,
        ask.ok
          ? { ok: true, value: { price: ask.value.price, count: ask.value.count, time } }
          : ask,
        ctx,
      );
      if (read.ok) readListings(out, row.listings, ctx, base(ctx, name), info.scale);
    });
    return out.result();
  };
}

function listing(entry: SimListing, scale: number) {
  return {
    id: entry.id,
    price: decimalString(entry.price, scale),
    float: entry.floatValue,
    paint_seed: entry.paintSeed,
    paint_index: entry.paintIndex,
    phase: entry.phase,
    inspect_link: entry.inspectLink,
    stickers: entry.stickers,
  };
}

function exportBody(snapshot: SimSnapshot) {
  const price = (units: number) => decimalString(units, snapshot.scale);
  const items = snapshot.rows.map(({ item, quote, listings }) => ({
    market_hash_name: item.name,
    price: price(quote.ask[0]!.price),
    count: quote.listingCount,
    ...(listings ? { listings: listings.map((entry) => listing(entry, snapshot.scale)) } : {}),
  }));
  return { currency: snapshot.currency, generated_at: unixSeconds(snapshot.dataTime), items };
}

/** A simulated-only market: its info and behaviour; its answers are the shared export. */
export function simulatedOnly(
  info: MarketInfo,
  behaviour: Partial<SimProfile> &
    Pick<SimProfile, 'askLevel' | 'coverage' | 'outagesPerDay' | 'latencyMs'>,
): MarketDefinition {
  const profile: SimProfile = {
    ...BULK_LIST,
    salesShare: 0,
    sourceTime: 'generated_at',
    ...behaviour,
  };
  return {
    info,
    connector: null,
    parsers: { [KIND]: exportParser(info) },
    sim: {
      profile,
      pages: (snapshot) => [
        {
          request: { kind: KIND, game: snapshot.game, method: 'GET', path: '/export.json' },
          body: exportBody(snapshot),
        },
      ],
    },
  };
}
