import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { splicedPhase, withoutPhase } from './names.ts';
import { wantedNames } from './requests.ts';

describe('Waxpeer Doppler names', () => {
  test('finds and removes a phase written into the name', () => {
    const name = '★ Karambit | Doppler Black Pearl (Factory New)';
    assert.equal(splicedPhase(name), 'Black Pearl');
    assert.equal(withoutPhase(name), '★ Karambit | Doppler (Factory New)');
    assert.equal(
      withoutPhase('Glock-18 | Gamma Doppler Emerald (Minimal Wear)'),
      'Glock-18 | Gamma Doppler (Minimal Wear)',
    );
  });

  test('leaves other names alone', () => {
    for (const name of ['★ Karambit | Doppler (Factory New)', 'AK-47 | Redline (Field-Tested)']) {
      assert.equal(splicedPhase(name), null);
      assert.equal(withoutPhase(name), name);
    }
  });

  test('wanted names are Steam names without repeats, up to the limit', () => {
    const wanted = wantedNames(
      [
        '★ Karambit | Doppler Phase 2 (Factory New)',
        '★ Karambit | Doppler Ruby (Factory New)',
        'AK-47 | Redline (Field-Tested)',
        'Tempered AK47',
      ],
      2,
    );
    assert.deepEqual(wanted, [
      '★ Karambit | Doppler (Factory New)',
      'AK-47 | Redline (Field-Tested)',
    ]);
  });
});
