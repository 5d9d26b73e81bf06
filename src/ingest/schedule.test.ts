import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE, SECOND } from '../domain/clock.ts';
import { MARKET_IDS } from '../domain/markets.ts';
import { backoffMs, jitterMs, nextDelayMs, storeRetryMs } from './schedule.ts';

describe('schedule rules', () => {
  test('jitter is deterministic, under 10% of the cadence and capped at 30 s', () => {
    const offsets = new Set<number>();
    for (const market of MARKET_IDS) {
      const jitter = jitterMs(market, 'cs2', MINUTE);
      assert.equal(jitter, jitterMs(market, 'cs2', MINUTE));
      assert.ok(jitter >= 0 && jitter < 6 * SECOND);
      assert.ok(jitterMs(market, 'cs2', 60 * MINUTE) < 30 * SECOND);
      offsets.add(jitter);
    }
    assert.ok(offsets.size > MARKET_IDS.length / 2, 'markets are spread apart');
    assert.equal(jitterMs('skinport', 'cs2', 5), 0);
  });

  test('backoff: a quarter cadence, doubling, capped at four cadences', () => {
    const cadence = 60 * SECOND;
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 40].map((errors) => backoffMs(errors, cadence)),
      [15, 30, 60, 120, 240, 240, 240].map((s) => s * SECOND),
    );
    assert.equal(backoffMs(1, 2 * SECOND), SECOND, 'never under one second');
  });

  test('next delay: cadence plus jitter after success, backoff after errors', () => {
    const cadence = MINUTE;
    assert.equal(
      nextDelayMs('skinport', 'cs2', cadence, 0),
      cadence + jitterMs('skinport', 'cs2', cadence),
    );
    assert.equal(nextDelayMs('skinport', 'cs2', cadence, 2), backoffMs(2, cadence));
  });

  test('a failed commit is retried from 1 s, doubling, never later than the fetch backoff', () => {
    const cadence = 15 * MINUTE;
    assert.deepEqual(
      [1, 2, 3, 4].map((errors) => storeRetryMs(errors, cadence)),
      [SECOND, 2 * SECOND, 4 * SECOND, 8 * SECOND],
    );
    for (let errors = 1; errors < 40; errors += 1) {
      assert.ok(storeRetryMs(errors, cadence) <= backoffMs(errors, cadence));
    }
    assert.equal(storeRetryMs(40, cadence), backoffMs(40, cadence), 'the same cap in the end');
  });
});
