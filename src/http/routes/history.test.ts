import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../../domain/clock.ts';
import { auth, buildHarness, KEYS, T0 } from '../test-support.ts';
import { DAY0, historyHarness, historyPath, isoAt, quote, sold } from './history-test-support.ts';

const pro = auth(KEYS.pro);

async function get(app: Awaited<ReturnType<typeof historyHarness>>['app'], url: string) {
  const response = await app.inject({ url, headers: pro });
  return { status: response.statusCode, body: response.json() };
}

const range = (from: number, to: number, extra = '') =>
  `from=${isoAt(from)}&to=${isoAt(to)}${extra ? `&${extra}` : ''}`;

describe('200', () => {
  test('defaults: last 30 days, SELL_OFFER, hourly, oldest first, every field present', async () => {
    const { app, write } = await historyHarness();
    await write([
      quote('ask', 'skinport', 1250, T0 - 2 * HOUR),
      quote('bid', 'csfloat', 1100, T0 - 2 * HOUR),
    ]);
    await write([quote('ask', 'csfloat', 1200, T0 - 20 * DAY)]);
    await write([quote('ask', 'csfloat', 999, T0 - 31 * DAY)]);
    const { status, body } = await get(app, historyPath());
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), [
      'canonicalItemId',
      'name',
      'listingType',
      'salesWindow',
      'effectiveInterval',
      'history',
    ]);
    assert.deepEqual(
      [body.canonicalItemId, body.listingType, body.salesWindow, body.effectiveInterval],
      ['cs2-redline-ft', 'SELL_OFFER', null, '1h'],
    );
    assert.deepEqual(
      body.history.map((point: { timestamp: string }) => point.timestamp),
      [isoAt(T0 - 20 * DAY), isoAt(T0 - 2 * HOUR)],
    );
    assert.deepEqual(body.history[1], {
      timestamp: isoAt(T0 - 2 * HOUR),
      avgPrice: 1250,
      medianPrice: 1250,
      minPrice: 1250,
      maxPrice: 1250,
      bestAskCents: 1250,
      bestBidCents: 1100,
      spreadBps: 1277,
      listingCount: 3,
      totalQuantity: null,
      volume: null,
    });
  });

  test('relative dates (now, now-90m, now-24h, now-7d) read the clock like absolute ones', async () => {
    const { app, write } = await historyHarness();
    await write([
      quote('ask', 'skinport', 1250, T0 - 2 * DAY),
      quote('ask', 'csfloat', 990, T0 - 3 * HOUR),
    ]);
    const pairs: [string, string][] = [
      ['from=now-7d&to=now', range(T0 - 7 * DAY, T0)],
      ['from=NOW-24h', range(T0 - DAY, T0)],
      [
        'from=now-7d&to=now-90m&interval=HOUR_1',
        range(T0 - 7 * DAY, T0 - 90 * MINUTE, 'interval=HOUR_1'),
      ],
      ['from=now-1d&to=now-1d', range(T0 - DAY, T0 - DAY)],
    ];
    for (const [relative, absolute] of pairs) {
      const byRelative = await get(app, historyPath(relative));
      assert.equal(byRelative.status, 200, relative);
      assert.deepEqual(byRelative.body, (await get(app, historyPath(absolute))).body, relative);
    }
    const week = await get(app, historyPath('from=now-7d'));
    assert.equal(week.body.history.length, 2);
  });

  test('every interval maps to its stored tier', async () => {
    const { app } = await historyHarness();
    const expected = { MINUTE_5: '10m', MINUTE_15: '10m', HOUR_1: '1h', HOUR_6: '1h', DAY_1: '1d' };
    for (const [interval, tier] of Object.entries(expected)) {
      const { body } = await get(app, historyPath(`interval=${interval}`));
      assert.equal(body.effectiveInterval, tier, interval);
    }
  });

  test('automatic interval: exactly 7 days is 10m, 1 ms more is 1h; 180 days 1h, then 1d', async () => {
    const { app } = await historyHarness();
    const cases: [number, string][] = [
      [7 * DAY, '10m'],
      [7 * DAY + 1, '1h'],
      [180 * DAY, '1h'],
      [180 * DAY + 1, '1d'],
    ];
    for (const [span, tier] of cases) {
      const { status, body } = await get(app, historyPath(range(T0 - span, T0)));
      assert.equal(status, 200);
      assert.equal(body.effectiveInterval, tier, `${span} ms`);
    }
  });

  test('buckets without observations are absent, never zeros', async () => {
    const { app, write } = await historyHarness();
    await write([quote('ask', 'skinport', 1000, DAY0 + MINUTE)]);
    await write([quote('ask', 'skinport', 1100, DAY0 + 45 * MINUTE)]);
    const { body } = await get(app, historyPath(range(DAY0, DAY0 + HOUR, 'interval=MINUTE_15')));
    assert.deepEqual(
      body.history.map((point: { timestamp: string }) => point.timestamp),
      [isoAt(DAY0), isoAt(DAY0 + 40 * MINUTE)],
    );
  });

  test('aliases name the canonical listing type; BUY_ORDER carries totalQuantity', async () => {
    const { app, write } = await historyHarness();
    await write([quote('bid', 'csfloat', 1100, T0 - HOUR, 5)]);
    for (const [alias, canonical] of [
      ['SELL', 'SELL_OFFER'],
      ['BUY', 'BUY_ORDER'],
      ['SALES', 'SALE_HISTORY'],
    ]) {
      assert.equal(
        (await get(app, historyPath(`listingType=${alias}`))).body.listingType,
        canonical,
      );
    }
    const { body } = await get(app, historyPath('listingType=BUY_ORDER'));
    assert.deepEqual([body.history[0].totalQuantity, body.history[0].listingCount], [6, 5]);
  });

  test('SALE_HISTORY: rolling volume as of each bucket end (overlapping, never summed)', async () => {
    const { app, write } = await historyHarness();
    await write(
      [],
      [sold('csfloat', 1000, DAY0 - 10 * HOUR, 2), sold('skinport', 1100, DAY0 + HOUR)],
    );
    await write([], [sold('csfloat', 1200, DAY0 + 3 * HOUR)]);
    const query = range(
      DAY0 - DAY,
      DAY0 + 6 * HOUR,
      'listingType=SALES&salesWindow=24h&interval=HOUR_1',
    );
    const { body } = await get(app, historyPath(query));
    assert.equal(body.salesWindow, '24h');
    assert.deepEqual(
      body.history.map((point: { volume: number; listingCount: number }) => [
        point.listingCount,
        point.volume,
      ]),
      [
        [2, 2],
        [1, 3],
        [1, 4],
      ],
    );
    const defaulted = await get(app, historyPath('listingType=SALE_HISTORY'));
    assert.equal(defaulted.body.salesWindow, '30d');
  });

  test('per-market series keep their own quotes (negative spread); the aggregate bid does not cross', async () => {
    const { app, write } = await historyHarness();
    const at = T0 - HOUR;
    await write([quote('ask', 'buff163', 1200, at), quote('bid', 'buff163', 1300, at)]);
    await write([quote('ask', 'csfloat', 1250, at), quote('bid', 'csfloat', 1150, at)]);
    const aggregate = (await get(app, historyPath())).body.history[0];
    assert.deepEqual([aggregate.bestAskCents, aggregate.bestBidCents], [1200, 1150]);
    const { body } = await get(app, historyPath('', 'history/markets'));
    assert.deepEqual(
      body.series.map((entry: { market: string }) => entry.market),
      ['buff163', 'csfloat'],
    );
    const buff = body.series[0].history[0];
    assert.deepEqual([buff.bestAskCents, buff.bestBidCents, buff.spreadBps], [1200, 1300, -800]);
    const listed = await get(app, historyPath('markets=csfloat,skinport', 'history/markets'));
    assert.deepEqual(
      listed.body.series.map((entry: { market: string; history: unknown[] }) => [
        entry.market,
        entry.history.length,
      ]),
      [
        ['skinport', 0],
        ['csfloat', 1],
      ],
    );
  });

  test('/v2 with game; an unknown item is 404', async () => {
    const { app } = await historyHarness();
    const ok = await get(app, '/v2/pricing/cs2-redline-ft/history?game=cs2');
    assert.equal(ok.status, 200);
    assert.equal(
      (await get(app, '/v2/pricing/cs2-redline-ft/history/markets?game=rust')).status,
      404,
    );
    assert.equal((await get(app, '/v2/pricing/cs2-redline-ft/history')).status, 400);
  });
});

describe('the 10,000-point bound', () => {
  test('10,000 points are allowed, 10,001 are refused with a hint to narrow the range', async () => {
    const { app } = await historyHarness();
    const last = DAY0 + 9_999 * 10 * MINUTE;
    const allowed = await get(app, historyPath(range(DAY0, last, 'interval=MINUTE_5')));
    assert.equal(allowed.status, 200);
    const refused = await get(
      app,
      historyPath(range(DAY0, last + 10 * MINUTE, 'interval=MINUTE_5')),
    );
    assert.equal(refused.status, 400);
    assert.match(refused.body.message[0], /10001 points.*narrow the range/);
  });

  test('each market series counts separately', async () => {
    const { app, write } = await historyHarness();
    await write([quote('ask', 'skinport', 1000, T0), quote('ask', 'csfloat', 1000, T0)]);
    const last = DAY0 + 4_999 * 10 * MINUTE;
    const two = await get(
      app,
      historyPath(range(DAY0, last, 'interval=MINUTE_5'), 'history/markets'),
    );
    assert.equal(two.status, 200);
    const over = range(DAY0, last + 10 * MINUTE, 'interval=MINUTE_5');
    assert.equal((await get(app, historyPath(over, 'history/markets'))).status, 400);
    const one = await get(app, historyPath(`${over}&markets=skinport`, 'history/markets'));
    assert.equal(one.status, 200);
  });
});

describe('400', () => {
  const cases: [string, string, RegExp][] = [
    ['an unknown interval', 'interval=MINUTE_1', /interval must be one of/],
    ['an unknown listingType', 'listingType=ASKS', /listingType must be one of/],
    [
      'salesWindow without SALE_HISTORY',
      'salesWindow=7d',
      /only accepted with listingType SALE_HISTORY/,
    ],
    ['an unknown salesWindow', 'listingType=SALES&salesWindow=1y', /salesWindow must be one of/],
    [
      'an invalid date',
      'from=yesterday',
      /from must be a valid ISO 8601 date.*or a time before now, e\.g\. now-7d/,
    ],
    ['a relative date with no unit', 'from=now-7', /from must be a valid ISO 8601 date/],
    ['a relative date after now', 'to=now+1d', /to must be a valid ISO 8601 date/],
    ['a relative date with a fraction', 'from=now-1.5d', /from must be a valid ISO 8601 date/],
    ['an impossible date', 'to=2026-02-30', /to must be a valid ISO 8601 date/],
    ['inverted dates', range(T0, T0 - 1), /from must not be after to/],
    ['markets on the aggregate form', 'markets=skinport', /only accepted on \/history\/markets/],
  ];
  for (const [label, query, message] of cases) {
    test(label, async () => {
      const { app } = await historyHarness();
      const { status, body } = await get(app, historyPath(query));
      assert.equal(status, 400);
      assert.match(body.message.join(' '), message);
    });
  }
});

describe('403 / 503', () => {
  test('the Developer plan lacks historical_data', async () => {
    const { app } = await historyHarness();
    const response = await app.inject({ url: historyPath(), headers: auth(KEYS.developer) });
    assert.equal(response.statusCode, 403);
    assert.match(response.json().message, /feature:historical_data/);
  });

  test('without a history store the routes answer 503', async () => {
    const { app } = await buildHarness();
    const response = await app.inject({ url: historyPath(), headers: pro });
    assert.equal(response.statusCode, 503);
    assert.equal(response.headers['retry-after'], '5');
  });
});
