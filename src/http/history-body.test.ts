import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, MINUTE } from '../domain/clock.ts';
import { parseHistoryQuery } from './history-params.ts';
import { BUCKETS_PER_SLICE, historySlices, readSeriesHistory } from './history-reader.ts';
import {
  historyHarness,
  historyPath,
  isoAt,
  ITEM_ID,
  quote,
  sold,
} from './routes/history-test-support.ts';
import { auth, KEYS, T0 } from './test-support.ts';

const STEP = 10 * MINUTE;
const BUCKETS = Math.round(BUCKETS_PER_SLICE * 2.5);

describe('history read and written slice by slice', () => {
  test('slices tile the buckets of the request exactly', () => {
    const request = parseHistoryQuery(
      { from: isoAt(T0 - 9 * DAY + 7 * MINUTE), to: isoAt(T0 - 3), interval: 'MINUTE_5' },
      T0,
    );
    const slices = historySlices(request);
    assert.equal(slices.length, Math.ceil(1297 / BUCKETS_PER_SLICE));
    assert.equal(slices[0]!.fromMs, T0 - 9 * DAY);
    slices.forEach((slice, index) => {
      const next = slices[index + 1];
      if (next) assert.equal(next.fromMs, slice.toMs + 1);
    });
    assert.equal(slices.at(-1)!.toMs, T0 - 1);
  });

  test('a long answer equals one unsliced read of every series', async () => {
    const { app, store, write } = await historyHarness();
    const start = T0 - BUCKETS * STEP;
    for (let at = start; at < T0; at += STEP) {
      const price = 1000 + ((at / STEP) % 37);
      await write(
        [quote('ask', 'skinport', price, at), quote('bid', 'csfloat', price - 90, at)],
        (at / STEP) % 2 === 0 ? [sold('skinport', price, at + MINUTE, 2)] : [],
      );
    }
    await store.flushRollups();
    const cases = [
      ['history', ''],
      ['history', '&listingType=SALE_HISTORY&salesWindow=7d'],
      ['history/markets', '&listingType=BUY'],
    ] as const;
    for (const [form, extra] of cases) {
      const query = `from=${isoAt(start)}&to=${isoAt(T0 - 1)}&interval=MINUTE_15${extra}`;
      const response = await app.inject({
        url: historyPath(query, form),
        headers: auth(KEYS.pro),
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.match(String(response.headers['content-type']), /^application\/json/);
      const body = response.json();
      const parsed = parseHistoryQuery(
        Object.fromEntries(new URLSearchParams(query)) as Record<string, string>,
        T0,
      );
      const read = (market: 'skinport' | 'csfloat' | null) =>
        readSeriesHistory(store, { game: 'cs2', itemId: ITEM_ID, market }, parsed);
      if (form === 'history') {
        const expected = await read(null);
        assert.ok(expected.length > BUCKETS_PER_SLICE, 'the answer spans several slices');
        assert.deepEqual(body.history, JSON.parse(JSON.stringify(expected)), extra);
      } else {
        const expected = [
          { market: 'skinport', history: await read('skinport') },
          { market: 'csfloat', history: await read('csfloat') },
        ];
        assert.deepEqual(body.series, JSON.parse(JSON.stringify(expected)));
      }
    }
  });
});
