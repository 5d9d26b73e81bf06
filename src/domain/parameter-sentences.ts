/**
 * The wording of validation errors (docs/api/conventions.md): one sentence per
 * problem, starting with the parameter's name, e.g. `perPage must not exceed 100`. The schema
 * validator's messages and every check made in code take their sentences from here.
 */
export const sentence = {
  required: (name: string) => `${name} is required`,
  mustBe: (name: string, what: string) => `${name} must be ${what}`,
  notAbove: (name: string, limit: unknown) => `${name} must not exceed ${String(limit)}`,
  notBelow: (name: string, limit: unknown) => `${name} must not be less than ${String(limit)}`,
  below: (name: string, limit: unknown) => `${name} must be less than ${String(limit)}`,
  above: (name: string, limit: unknown) => `${name} must be greater than ${String(limit)}`,
  notLongerThan: (name: string, limit: unknown) =>
    `${name} must not exceed ${String(limit)} characters`,
  notEmpty: (name: string) => `${name} should not be empty`,
  oneOf: (name: string, values: readonly unknown[]) =>
    `${name} must be one of: ${values.join(', ')}`,
};

export const INTEGER_WORDS = 'an integer number';

/** The problems of `value` as an integer parameter within [min, max]; empty when it is fine. */
export function integerProblems(name: string, value: number, min: number, max: number): string[] {
  if (!Number.isSafeInteger(value)) return [sentence.mustBe(name, INTEGER_WORDS)];
  if (value > max) return [sentence.notAbove(name, max)];
  if (value < min) return [sentence.notBelow(name, min)];
  return [];
}
