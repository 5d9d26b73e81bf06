/** CS.Deals helpers the fixtures touch only in part: sale times and phase folding. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { steamName } from './connector.ts';
import { readSaleTime } from './parse.ts';

test('sale times: unix seconds, digit strings, milliseconds and zoned ISO strings', () => {
  assert.equal(readSaleTime(1795510000), 1795510000000);
  assert.equal(readSaleTime('1795510000'), 1795510000000);
  assert.equal(readSaleTime(1795510000123), 1795510000123);
  assert.equal(readSaleTime('2026-11-24T10:15:00Z'), Date.UTC(2026, 10, 24, 10, 15));
  assert.equal(readSaleTime('2026-11-24 10:15:00+01:00'), Date.UTC(2026, 10, 24, 9, 15));
  for (const bad of ['2026-11-24T10:15:00', 'yesterday', -1, Number.NaN, null, {}]) {
    assert.equal(readSaleTime(bad), null, JSON.stringify(bad));
  }
});

test('phase-spliced names fold into their Steam name; others are left alone', () => {
  assert.equal(
    steamName('★ Karambit | Doppler Black Pearl (Factory New)'),
    '★ Karambit | Doppler (Factory New)',
  );
  assert.equal(
    steamName('★ StatTrak™ Flip Knife | Gamma Doppler Phase 4 (Minimal Wear)'),
    '★ StatTrak™ Flip Knife | Gamma Doppler (Minimal Wear)',
  );
  assert.equal(
    steamName('Glock-18 | Gamma Doppler (Factory New)'),
    'Glock-18 | Gamma Doppler (Factory New)',
  );
  assert.equal(steamName('AK-47 | Redline (Field-Tested)'), 'AK-47 | Redline (Field-Tested)');
});
