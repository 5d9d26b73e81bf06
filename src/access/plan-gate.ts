/** The plan gate: a pure check of an effective plan against FEATURE_MIN_PLAN. */
import { planAllows } from '../domain/plans.ts';
import type { Feature, Plan } from '../domain/plans.ts';
import { featureNotAvailable } from './failures.ts';
import type { AccessFailure } from './failures.ts';

/** null when the plan includes the feature, otherwise the 403 to send. */
export function checkPlan(plan: Plan, feature: Feature): AccessFailure | null {
  return planAllows(plan, feature) ? null : featureNotAvailable(plan, feature);
}
