import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogItem } from '../../domain/item.ts';
import { fullCatalogs } from '../test-catalogs.ts';
import { resolvePhase, resolveVariant } from '../variants.ts';
import { DOPPLER_PHASE_BY_PAINT_INDEX, normalizePhaseLabel, splicePhase } from './doppler.ts';

const catalog = fullCatalogs().cs2;

function named(name: string): CatalogItem {
  const item = catalog.byName(name);
  assert.ok(item, `missing ${name}`);
  return item;
}

describe('Doppler helpers', () => {
  test('splice the phase after the finish', () => {
    assert.equal(
      splicePhase('★ Karambit | Doppler (Factory New)', 'Doppler', 'Phase 2'),
      '★ Karambit | Doppler Phase 2 (Factory New)',
    );
    assert.equal(
      splicePhase(
        '★ StatTrak™ Karambit | Gamma Doppler (Minimal Wear)',
        'Gamma Doppler',
        'Emerald',
      ),
      '★ StatTrak™ Karambit | Gamma Doppler Emerald (Minimal Wear)',
    );
  });

  test('normalise loose phase labels', () => {
    assert.equal(normalizePhaseLabel('Phase 2'), 'Phase 2');
    assert.equal(normalizePhaseLabel('phase2'), 'Phase 2');
    assert.equal(normalizePhaseLabel('P4'), 'Phase 4');
    assert.equal(normalizePhaseLabel('3'), 'Phase 3');
    assert.equal(normalizePhaseLabel('black_pearl'), 'Black Pearl');
    assert.equal(normalizePhaseLabel('RUBY'), 'Ruby');
    assert.equal(normalizePhaseLabel('Phase 5'), undefined);
    assert.equal(normalizePhaseLabel('Fade'), undefined);
  });
});

describe('Doppler variants in the CS2 catalog', () => {
  const base = named('★ Karambit | Doppler (Factory New)');

  test('the base item keeps the Steam name and lists its variants', () => {
    assert.equal(base.phase, undefined);
    assert.equal(base.paintIndex, undefined);
    const variants = base.variants ?? [];
    assert.deepEqual(
      variants.map((variant) => variant.name),
      ['Phase 1', 'Phase 2', 'Phase 3', 'Phase 4', 'Ruby', 'Sapphire', 'Black Pearl'],
    );
    const phase2 = variants[1];
    assert.ok(phase2);
    assert.equal(phase2.marketHashName, '★ Karambit | Doppler Phase 2 (Factory New)');
    assert.equal(phase2.family, 'doppler');
    assert.equal(phase2.phase, 2);
    assert.equal(phase2.paintIndex, 419);
    assert.equal(variants[4]?.phase, undefined);
  });

  test('every variant is a priceable item pointing back at its base', () => {
    for (const item of catalog.items) {
      for (const variant of item.variants ?? []) {
        const entry = named(variant.marketHashName);
        assert.equal(entry.variantOf, item.id);
        assert.equal(entry.phase, variant.name);
        assert.equal(entry.paintIndex, variant.paintIndex);
        assert.equal(entry.variants, undefined);
        assert.equal(entry.wear, item.wear);
        assert.equal(entry.stattrak, item.stattrak);
      }
    }
  });

  test('variant labels agree with the paint-index table', () => {
    let checked = 0;
    for (const item of catalog.items) {
      for (const variant of item.variants ?? []) {
        assert.equal(DOPPLER_PHASE_BY_PAINT_INDEX[variant.paintIndex], variant.name);
        checked += 1;
      }
    }
    assert.ok(checked > 500);
  });

  test('known spliced names exist, including StatTrak™ gamma gems', () => {
    named('★ Karambit | Doppler Ruby (Factory New)');
    named('★ StatTrak™ Karambit | Gamma Doppler Emerald (Minimal Wear)');
    named('★ Butterfly Knife | Doppler Black Pearl (Factory New)');
    named('Glock-18 | Gamma Doppler Emerald (Factory New)');
  });

  test('resolveVariant maps a paint index to the variant entry', () => {
    assert.equal(
      resolveVariant(catalog, base.id, 415)?.marketHashName,
      '★ Karambit | Doppler Ruby (Factory New)',
    );
    assert.equal(
      resolveVariant(catalog, base.marketHashName, 419)?.marketHashName,
      '★ Karambit | Doppler Phase 2 (Factory New)',
    );
    assert.equal(resolveVariant(catalog, base.id, 568), undefined);
    const butterfly = named('★ Butterfly Knife | Doppler (Factory New)');
    assert.equal(resolveVariant(catalog, butterfly.id, 618)?.phase, 'Phase 2');
    assert.equal(resolveVariant(catalog, butterfly.id, 619)?.phase, 'Sapphire');
  });

  test('resolvePhase maps a label to the variant entry', () => {
    assert.equal(
      resolvePhase(catalog, base.id, 'Phase 2')?.marketHashName,
      '★ Karambit | Doppler Phase 2 (Factory New)',
    );
    assert.equal(
      resolvePhase(catalog, base.id, 'ruby')?.marketHashName,
      '★ Karambit | Doppler Ruby (Factory New)',
    );
    assert.equal(resolvePhase(catalog, base.id, 'Emerald'), undefined);
    assert.equal(resolvePhase(catalog, 'AK-47 | Redline (Field-Tested)', 'Phase 1'), undefined);
  });

  test('gems are priced several times the base phase', () => {
    const price = (name: string) => named(name).referencePriceCents ?? 0;
    const phase2 = price('★ Karambit | Doppler Phase 2 (Factory New)');
    assert.ok(price('★ Karambit | Doppler Ruby (Factory New)') > 3 * phase2);
    assert.ok(price('★ Karambit | Doppler Sapphire (Factory New)') > 3 * phase2);
    assert.ok(price('★ Karambit | Doppler Black Pearl (Factory New)') > 2 * phase2);
    assert.ok(
      price('★ Karambit | Gamma Doppler Emerald (Factory New)') >
        3 * price('★ Karambit | Gamma Doppler Phase 1 (Factory New)'),
    );
  });
});
