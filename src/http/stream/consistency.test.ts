import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MINUTE } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import { streamHubOf } from '../app.ts';
import { auth, buildHarness, KEYS } from '../test-support.ts';
import type { StreamSink } from './hub.ts';

const REDLINE = 'AK-47 | Redline (Field-Tested)';
const MARKETS: readonly MarketId[] = ['csfloat', 'skinport', 'buff163', 'steamcommunity'];

interface Row {
  market: string;
  price: number;
  isStale: boolean;
}

interface Folded {
  markets: Row[];
  buyOrders: Row[];
  top: { bestAsk: unknown; bestBid: unknown; spreadBps: number | null };
}

const byAsk = (a: Row, b: Row) => a.price - b.price || a.market.localeCompare(b.market);
const byBid = (a: Row, b: Row) => b.price - a.price || a.market.localeCompare(b.market);

/** Applies one stream message to the client-side state, as the docs tell a client to. */
function apply(state: Folded, event: string, data: Record<string, unknown>): void {
  if (event === 'snapshot') {
    const item = (data.items as Record<string, unknown>[])[0]!;
    const nbbo = item.nbbo as Folded['top'];
    state.markets = item.markets as Row[];
    state.buyOrders = item.buyOrders as Row[];
    state.top = { bestAsk: nbbo.bestAsk, bestBid: nbbo.bestBid, spreadBps: nbbo.spreadBps };
    return;
  }
  const list = data.side === 'ask' ? 'markets' : 'buyOrders';
  if (event === 'quote') {
    const rows = state[list].filter((row) => row.market !== data.market);
    if (data.quote) rows.push(data.quote as Row);
    state[list] = rows.sort(list === 'markets' ? byAsk : byBid);
  } else if (event === 'stale') {
    for (const row of state[list]) if (row.market === data.market) row.isStale = true;
  } else if (event === 'nbbo') {
    const { bestAsk, bestBid, spreadBps } = data as Folded['top'];
    state.top = { bestAsk, bestBid, spreadBps };
  }
}

const step = fc.oneof(
  fc.record({
    kind: fc.constant('quote' as const),
    side: fc.constantFrom('ask' as const, 'bid' as const),
    item: fc.constantFrom('cs2-redline-ft', 'cs2-asiimov-ft'),
    market: fc.constantFrom(...MARKETS),
    prices: fc.array(fc.integer({ min: 100, max: 2_000 }), { maxLength: 2 }),
  }),
  fc.record({
    kind: fc.constant('advance' as const),
    ms: fc.integer({ min: 1, max: 40 * MINUTE }),
  }),
);

test('snapshot + every event in order == /v1/pricing rows and the /v1/nbbo top at that id', async () => {
  const harness = await buildHarness({ streamTickMs: 0, docs: false });
  const hub = streamHubOf(harness.app)!;
  await fc.assert(
    fc.asyncProperty(
      fc.subarray([...MARKETS]),
      fc.array(step, { minLength: 1, maxLength: 25 }),
      async (selected, steps) => {
        const markets = selected.length > 0 ? `markets=${selected.join(',')}` : '';
        const state: Folded = {
          markets: [],
          buyOrders: [],
          top: { bestAsk: null, bestBid: null, spreadBps: null },
        };
        const sink: StreamSink = {
          write(chunk) {
            for (const frame of chunk.split('\n\n')) {
              const lines = frame.split('\n');
              const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? '';
              const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
              if (data) apply(state, event, JSON.parse(data) as Record<string, unknown>);
            }
            return true;
          },
          close() {},
        };
        const stop = hub.subscribe({
          game: 'cs2',
          items: [{ id: 'cs2-redline-ft', marketHashName: REDLINE }],
          selection: { markets: selected.length > 0 ? new Set(selected) : null },
          types: new Set(['quote', 'nbbo', 'stale']),
          lastEventId: null,
          sink,
        });
        for (const one of steps) {
          if (one.kind === 'advance') {
            harness.clock.advance(one.ms);
            hub.tick();
          } else {
            harness.quote(one.side, one.item, one.market, one.prices);
          }
        }
        stop();
        const query = markets ? `?${markets}` : '';
        const name = encodeURIComponent(REDLINE);
        const pricing = await harness.app.inject({
          url: `/v1/pricing/${name}${query}`,
          headers: auth(KEYS.enterprise),
        });
        const nbbo = await harness.app.inject({
          url: `/v1/nbbo?market_hash_name=${name}${markets ? `&${markets}` : ''}`,
          headers: auth(KEYS.enterprise),
        });
        assert.deepEqual(state.markets, pricing.json().markets);
        assert.deepEqual(state.buyOrders, pricing.json().buyOrders);
        const { bestAsk, bestBid, spreadBps } = nbbo.json();
        assert.deepEqual(state.top, { bestAsk, bestBid, spreadBps });
      },
    ),
    { numRuns: 60 },
  );
  await harness.app.close();
});
