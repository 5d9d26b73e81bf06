/** Types of scripts/test-plan.mjs for the TypeScript tests that check it. */
export interface TestUnit {
  files: string[];
  weight: number;
}
export const DEFAULT_WEIGHT: number;
export const GROUP_TARGET: number;
export function collectTestFiles(dir: string, out?: string[]): string[];
export function needsOwnProcess(file: string, source: string): boolean;
export function readWeights(path: string): Record<string, number>;
export function groupFiles(
  files: string[],
  weightOf: (file: string) => number,
  target?: number,
): TestUnit[];
export function planUnits(
  files: string[],
  options: { weights: Record<string, number>; sourceOf: (file: string) => string },
): TestUnit[];
