import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bandOf, bandsOf, EXTERIORS, exteriorOf, layoutOf } from './bands.ts';
import { fadePercent, hasFade } from './fade.ts';
import { phaseTag } from './phase.ts';

const floatArb = fc.double({ min: 0, max: 1, noNaN: true });

describe('float bands', () => {
  test('exterior edges: 0.0699 is FN, 0.07 is MW; 0.15 FT, 0.38 WW, 0.45 BS, 1 BS', () => {
    const short = (float: number) => exteriorOf(float).short;
    assert.deepEqual([0, 0.0699, 0.07, 0.1499, 0.15, 0.3799, 0.38, 0.45, 1].map(short), [
      'FN',
      'FN',
      'MW',
      'MW',
      'FT',
      'FT',
      'WW',
      'BS',
      'BS',
    ]);
  });

  test('Buff163 Field-Tested bands: 0.15 is in the first, 0.18 in the second', () => {
    assert.deepEqual(
      bandsOf('buff163', EXTERIORS[2]).map((band) => [band.min, band.max]),
      [
        [0.15, 0.18],
        [0.18, 0.21],
        [0.21, 0.24],
        [0.24, 0.27],
        [0.27, 0.38],
      ],
    );
    assert.deepEqual(bandOf('buff163', 0.15), { min: 0.15, max: 0.18 });
    assert.deepEqual(bandOf('buff163', 0.1799999), { min: 0.15, max: 0.18 });
    assert.deepEqual(bandOf('buff163', 0.18), { min: 0.18, max: 0.21 });
    assert.deepEqual(bandOf('buff163', 0.3799), { min: 0.27, max: 0.38 });
  });

  test("Buff163's bands for the other exteriors, BS closed at 1 by our own last band", () => {
    const edges = (index: number) => bandsOf('buff163', EXTERIORS[index]!).map((b) => b.max);
    assert.deepEqual(edges(0), [0.01, 0.02, 0.03, 0.04, 0.07]);
    assert.deepEqual(edges(1), [0.08, 0.09, 0.1, 0.11, 0.15]);
    assert.deepEqual(edges(3), [0.39, 0.4, 0.41, 0.42, 0.45]);
    assert.deepEqual(edges(4), [0.5, 0.63, 0.76, 0.85, 1]);
  });

  test('other markets: uniform 0.01 bins, clamped to the exterior', () => {
    assert.equal(layoutOf('buff163'), 'buff163');
    for (const market of ['csfloat', 'dmarket', 'steamcommunity', 'marketcsgo']) {
      assert.equal(layoutOf(market), 'uniform');
    }
    assert.deepEqual(bandOf('uniform', 0.0699), { min: 0.06, max: 0.07 });
    assert.deepEqual(bandOf('uniform', 0.07), { min: 0.07, max: 0.08 });
    assert.deepEqual(bandOf('uniform', 0.29), { min: 0.29, max: 0.3 });
    assert.deepEqual(bandOf('uniform', 0.2899999999), { min: 0.28, max: 0.29 });
    assert.deepEqual(bandOf('uniform', 1), { min: 0.99, max: 1 });
    assert.equal(bandsOf('uniform', EXTERIORS[2]).length, 23);
    assert.equal(bandsOf('uniform', EXTERIORS[4]).length, 55);
  });

  test('no band crosses an exterior boundary, and the bands tile each exterior', () => {
    for (const layout of ['buff163', 'uniform'] as const) {
      for (const exterior of EXTERIORS) {
        const bands = bandsOf(layout, exterior);
        assert.equal(bands[0]!.min, exterior.min);
        assert.equal(bands.at(-1)!.max, exterior.max);
        bands.forEach((band, index) => {
          assert.ok(band.min < band.max && band.min >= exterior.min && band.max <= exterior.max);
          if (index > 0) assert.equal(band.min, bands[index - 1]!.max);
        });
      }
    }
  });

  test('property: every float falls in exactly one band of each layout, inside its exterior', () => {
    fc.assert(
      fc.property(floatArb, fc.constantFrom('buff163' as const, 'uniform' as const), (f, l) => {
        const exterior = exteriorOf(f);
        const holding = bandsOf(l, exterior).filter(
          (band) => f >= band.min && (f < band.max || (f === 1 && band.max === 1)),
        );
        assert.equal(holding.length, 1);
        assert.deepEqual(bandOf(l, f), holding[0]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('fade percentage (chescos/csgo-fade-percentage-calculator published pairs)', () => {
  const published: [string, number, number][] = [
    ['MP7', 182, 80],
    ['MP7', 80, 100],
    ['MP7', 329, 91.81044998736732],
    ['Karambit', 0, 95.1320370612319],
    ['Karambit', 412, 100],
    ['Karambit', 763, 80],
    ['Karambit', 999, 93.08311985704788],
    ['Bayonet', 0, 84.8679629387681],
    ['Bayonet', 412, 80],
    ['Bayonet', 763, 100],
    ['Bayonet', 999, 86.91688014295212],
    ['AWP', 0, 95.1320370612319],
  ];
  for (const [weapon, seed, percent] of published) {
    test(`${weapon} seed ${seed} is ${percent} %`, () => {
      assert.equal(fadePercent(weapon, seed), percent);
    });
  }

  test('only Fade weapons and seeds in range have one', () => {
    assert.equal(fadePercent('AK-47', 10), null);
    assert.equal(fadePercent('Karambit', 1000), null, 'knives have seeds 0..999');
    assert.equal(typeof fadePercent('MAC-10', 1000), 'number', 'trade-up guns have 0..1000');
    assert.equal(fadePercent('Karambit', -1), null);
    assert.ok(hasFade('Karambit', 'Fade'));
    assert.ok(!hasFade('Karambit', 'Doppler'));
    assert.ok(!hasFade('Sport Gloves', 'Fade'));
  });

  test('property: every fade lies in [80, 100]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999 }),
        fc.constantFrom('Karambit', 'MP7', 'AWP'),
        (seed, weapon) => {
          const percent = fadePercent(weapon, seed)!;
          assert.ok(percent >= 80 && percent <= 100);
        },
      ),
    );
  });
});

describe('phase tags from each source label', () => {
  const cases: [string, string, string | null][] = [
    ['csfloat / waxpeer', 'Phase 2', 'phase-2'],
    ['marketcsgo phase param', 'phase2', 'phase-2'],
    ['short form', 'P4', 'phase-4'],
    ['buff163 (from paint index)', 'Phase 1', 'phase-1'],
    ['waxpeer gem', 'Black Pearl', 'black-pearl'],
    ['export gem', 'black_pearl', 'black-pearl'],
    ['gamma gem', 'Emerald', 'emerald'],
    ['doppler gem', 'Ruby', 'ruby'],
    ['doppler gem', 'Sapphire', 'sapphire'],
    ['not a phase', 'Phase 5', null],
    ['not a phase', 'Gold', null],
  ];
  for (const [source, label, key] of cases) {
    test(`${source}: "${label}" → ${key}`, () => {
      assert.equal(phaseTag(label)?.key ?? null, key);
    });
  }
  test('no label, no tag', () => assert.equal(phaseTag(null), null));
});
