import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FxSourceError, implausibleMoves, parseEcbDaily } from './fx-ecb.ts';
import { convertToUsdCents } from '../../ingest/fx.ts';

import { ECB_SAMPLE, ECB_REAL_CAPTURE } from './test-ecb.ts';

describe('ECB euro reference rates', () => {
  test('the daily file becomes micro-USD per unit, dated at its reference date', () => {
    const table = parseEcbDaily(ECB_SAMPLE);
    assert.equal(table.asOf, Date.parse('2026-11-23T00:00:00Z'));
    assert.equal(table.source, 'ECB euro reference rates of 2026-11-23');
    assert.equal(table.usdMicroPerUnit.USD, 1_000_000);
    assert.equal(table.usdMicroPerUnit.EUR, 1_157_100, '1.1571 USD per EUR exactly');
    // 1.1571 / 8.2313 = 0.140573421… USD per CNY
    assert.equal(table.usdMicroPerUnit.CNY, 140_573);
    // 1.1571 / 0.88035 = 1.314363605… USD per GBP
    assert.equal(table.usdMicroPerUnit.GBP, 1_314_364);
    assert.equal(table.usdMicroPerUnit.RUB, undefined, 'not published since 2022');
    assert.equal(Object.keys(table.usdMicroPerUnit).length, 31);
  });

  test('real capture: an answer the ECB sent (2010-04-20) reads as worked out by hand', () => {
    const { capture, body, expected } = ECB_REAL_CAPTURE;
    assert.match(capture.retrieved, /^\d{4}-\d{2}-\d{2}$/);
    assert.match(capture.commit, /^[0-9a-f]{40}$/);
    assert.ok(capture.licence.startsWith('MIT'));
    const table = parseEcbDaily(body);
    assert.equal(table.asOf, Date.parse(expected.asOf));
    assert.equal(Object.keys(table.usdMicroPerUnit).length, expected.currencies);
    for (const [currency, micro] of Object.entries(expected.usdMicroPerUnit)) {
      assert.equal(table.usdMicroPerUnit[currency], micro, currency);
    }
  });

  test('a 11.90 EUR ask converts to 1377 cents with the day’s rate', () => {
    const table = parseEcbDaily(ECB_SAMPLE);
    assert.deepEqual(convertToUsdCents(1190, 100, 'EUR', table), { ok: true, cents: 1377 });
    assert.deepEqual(convertToUsdCents(10000, 100, 'CNY', table), { ok: true, cents: 1406 });
  });

  test('property: every rate is the exact half-up quotient of the two decimal strings', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.integer({ min: 1, max: 99_999_999 }),
        (usdUnits, otherUnits) => {
          const usd = (usdUnits / 10_000).toFixed(4);
          const other = (otherUnits / 10_000).toFixed(4);
          const xml = `<Envelope><Cube><Cube time='2026-11-23'><Cube currency='USD' rate='${usd}'/><Cube currency='XYZ' rate='${other}'/></Cube></Cube></Envelope>`;
          const rate = parseEcbDaily(xml).usdMicroPerUnit.XYZ!;
          const exact =
            (BigInt(usdUnits) * 1_000_000n * 2n + BigInt(otherUnits)) / (BigInt(otherUnits) * 2n);
          assert.equal(BigInt(rate), exact);
        },
      ),
    );
  });

  test('garbage is refused with a reason, never half-read', () => {
    const cases = [
      '<html><body>Service unavailable</body></html>',
      '<Envelope><Cube><Cube time="yesterday"><Cube currency="USD" rate="1.1"/></Cube></Cube></Envelope>',
      "<Envelope><Cube><Cube time='2026-11-23'><Cube currency='CNY' rate='8.2'/></Cube></Cube></Envelope>",
      "<Envelope><Cube><Cube time='2026-11-23'><Cube currency='USD' rate='-1'/></Cube></Cube></Envelope>",
      '',
      42,
    ];
    for (const body of cases) assert.throws(() => parseEcbDaily(body), FxSourceError, String(body));
  });

  test('implausible day-to-day moves are named; a month-old table is not compared', () => {
    const today = parseEcbDaily(ECB_SAMPLE);
    const yesterday = {
      ...today,
      asOf: today.asOf - 86_400_000,
      usdMicroPerUnit: { ...today.usdMicroPerUnit, CNY: 14_057 },
    };
    assert.deepEqual(implausibleMoves(today, yesterday), ['CNY']);
    assert.deepEqual(
      implausibleMoves(today, { ...yesterday, asOf: today.asOf - 40 * 86_400_000 }),
      [],
    );
    assert.deepEqual(implausibleMoves(today, today), []);
  });
});
