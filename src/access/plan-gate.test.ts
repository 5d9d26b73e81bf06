import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPlan } from './plan-gate.ts';
import { toApiError } from './failures.ts';
import { FEATURE_MIN_PLAN, PLANS, PLAN_RANK } from '../domain/plans.ts';
import type { Feature } from '../domain/plans.ts';

describe('checkPlan', () => {
  test('refuses a Developer key on a Pro feature with the exact public message', () => {
    assert.deepEqual(checkPlan('developer', 'historical_data'), {
      ok: false,
      status: 403,
      code: 'FEATURE_NOT_AVAILABLE',
      message:
        'Your current plan (DEVELOPER) does not include access to this feature (feature:historical_data).',
    });
  });

  test('names the Pro plan when it lacks an Enterprise feature', () => {
    assert.equal(
      checkPlan('pro', 'items_all')?.message,
      'Your current plan (PRO) does not include access to this feature (feature:items_all).',
    );
  });

  test('allows exactly the plans ranked at or above each feature minimum', () => {
    for (const feature of Object.keys(FEATURE_MIN_PLAN) as Feature[]) {
      for (const plan of PLANS) {
        const allowed = PLAN_RANK[plan] >= PLAN_RANK[FEATURE_MIN_PLAN[feature]];
        assert.equal(checkPlan(plan, feature) === null, allowed, `${plan} / ${feature}`);
      }
    }
  });

  test('converts to the domain ApiError', () => {
    const failure = checkPlan('developer', 'liquidity');
    assert.ok(failure);
    const error = toApiError(failure);
    assert.equal(error.statusCode, 403);
    assert.equal(error.code, 'FEATURE_NOT_AVAILABLE');
    assert.match(error.message, /does not include access to this feature \(feature:liquidity\)\.$/);
  });
});
