import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalId, isCanonicalIdShape } from './canonical-id.ts';
import { slugify } from './slug.ts';

describe('canonicalId', () => {
  test('is pinned: changing the scheme would break every stored id', () => {
    assert.equal(canonicalId('cs2', 'AK-47 | Redline (Field-Tested)'), 'cs2_65sgbqc2qpru4gfv4wo4');
  });

  test('has the documented shape and game prefix', () => {
    assert.match(canonicalId('cs2', 'Glory AK47'), /^cs2_[a-z2-7]{20}$/);
    assert.match(canonicalId('rust', 'Glory AK47'), /^rust_[a-z2-7]{20}$/);
  });

  test('depends on the game as well as the name', () => {
    assert.notEqual(
      canonicalId('cs2', 'Glory AK47').slice(4),
      canonicalId('rust', 'Glory AK47').slice(5),
    );
  });

  test('is deterministic and well-shaped for any name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (name) => {
        const id = canonicalId('cs2', name);
        assert.equal(id, canonicalId('cs2', name));
        assert.ok(isCanonicalIdShape(id));
      }),
    );
  });

  test('distinguishes names that differ only in case or spacing', () => {
    const ids = new Set(
      ['★ Karambit', '★ karambit', '★  Karambit', '★ Karambit '].map((name) =>
        canonicalId('cs2', name),
      ),
    );
    assert.equal(ids.size, 4);
  });
});

describe('slugify', () => {
  test('drops star and trademark and keeps words', () => {
    assert.equal(
      slugify('★ StatTrak™ Karambit | Doppler (Factory New)'),
      'stattrak-karambit-doppler-factory-new',
    );
    assert.equal(
      slugify('Sticker | Flammable (Foil) | Cologne 2015'),
      'sticker-flammable-foil-cologne-2015',
    );
    assert.equal(slugify('Rustigé Egg - Blue'), 'rustige-egg-blue');
  });

  test('never yields an empty or unsafe slug', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (name) => {
        assert.match(slugify(name), /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      }),
    );
  });
});
