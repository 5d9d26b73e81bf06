import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MigrationPlanError, assertMigrationList, pendingMigrations } from './migration-plan.ts';

const steps = [
  { version: 1, name: 'initial' },
  { version: 2, name: 'rollups' },
  { version: 3, name: 'more' },
];

describe('migration plan', () => {
  test('a fresh database needs every step, in order', () => {
    assert.deepEqual(
      pendingMigrations(steps, []).map((step) => step.version),
      [1, 2, 3],
    );
  });

  test('applied steps are skipped', () => {
    assert.deepEqual(
      pendingMigrations(steps, [1, 2]).map((step) => step.name),
      ['more'],
    );
    assert.deepEqual(pendingMigrations(steps, [1, 2, 3]), []);
  });

  test('a database from a newer build is refused', () => {
    assert.throws(() => pendingMigrations(steps, [1, 2, 3, 4]), /schema version 4.*up to 3/);
  });

  test('versions must run 1, 2, 3 without gaps or repeats', () => {
    assert.doesNotThrow(() => assertMigrationList(steps));
    const gap = [steps[0]!, { version: 3, name: 'skips two' }];
    const repeat = [steps[0]!, { version: 1, name: 'again' }];
    assert.throws(() => assertMigrationList(gap), MigrationPlanError);
    assert.throws(() => assertMigrationList(repeat), MigrationPlanError);
  });
});
