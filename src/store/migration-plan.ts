/**
 * Which schema migrations a database still needs, for any PriceStore dialect.
 * Migrations are numbered 1, 2, 3, ... and applied in order, each exactly once. A database
 * that has applied a version this build does not know was written by a newer build:
 * refusing to touch it beats guessing.
 */
export interface MigrationStep {
  version: number;
  name: string;
}

export class MigrationPlanError extends Error {
  override readonly name = 'MigrationPlanError';
}

/** Throws unless versions run 1, 2, 3, ... without gaps or repeats. */
export function assertMigrationList(steps: readonly MigrationStep[]): void {
  steps.forEach((step, index) => {
    if (step.version !== index + 1) {
      throw new MigrationPlanError(
        `migration "${step.name}" has version ${step.version}, expected ${index + 1}`,
      );
    }
  });
}

/** The steps not yet applied, oldest first. */
export function pendingMigrations<T extends MigrationStep>(
  steps: readonly T[],
  appliedVersions: readonly number[],
): T[] {
  assertMigrationList(steps);
  const known = steps.length;
  const unknown = appliedVersions.filter((version) => version > known || version < 1);
  if (unknown.length > 0) {
    throw new MigrationPlanError(
      `database has schema version ${Math.max(...unknown)}, this build knows up to ${known}`,
    );
  }
  const applied = new Set(appliedVersions);
  return steps.filter((step) => !applied.has(step.version));
}
