import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { phaseOfPaintIndex, withPhase } from './naming.ts';

describe('market naming', () => {
  test('phases splice into Doppler and Gamma Doppler names', () => {
    assert.equal(
      withPhase('★ Karambit | Doppler (Factory New)', 'Phase 2'),
      '★ Karambit | Doppler Phase 2 (Factory New)',
    );
    assert.equal(
      withPhase('★ StatTrak™ Karambit | Gamma Doppler (Minimal Wear)', 'emerald'),
      '★ StatTrak™ Karambit | Gamma Doppler Emerald (Minimal Wear)',
    );
    assert.equal(
      withPhase('★ Flip Knife | Doppler (Factory New)', 'P4'),
      '★ Flip Knife | Doppler Phase 4 (Factory New)',
    );
    assert.equal(
      withPhase('Glock-18 | Gamma Doppler (Factory New)', 'black-pearl'),
      'Glock-18 | Gamma Doppler Black Pearl (Factory New)',
    );
  });

  test('other names, empty or unknown phases, and names already phased stay as they are', () => {
    assert.equal(
      withPhase('AK-47 | Redline (Field-Tested)', 'Phase 2'),
      'AK-47 | Redline (Field-Tested)',
    );
    assert.equal(
      withPhase('★ Karambit | Doppler (Factory New)', ''),
      '★ Karambit | Doppler (Factory New)',
    );
    assert.equal(
      withPhase('★ Karambit | Doppler (Factory New)', 'Phase 9'),
      '★ Karambit | Doppler (Factory New)',
    );
    assert.equal(
      withPhase('★ Karambit | Doppler (Factory New)', null),
      '★ Karambit | Doppler (Factory New)',
    );
    assert.equal(
      withPhase('★ Karambit | Doppler Ruby (Factory New)', 'Ruby'),
      '★ Karambit | Doppler Ruby (Factory New)',
    );
  });

  test('paint indexes name their phase', () => {
    assert.equal(phaseOfPaintIndex(415), 'Ruby');
    assert.equal(phaseOfPaintIndex(1120), 'Phase 1');
    assert.equal(phaseOfPaintIndex(282), null);
    assert.equal(phaseOfPaintIndex('415'), null);
  });
});
