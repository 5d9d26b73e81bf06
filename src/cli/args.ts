/** Thin wrapper over node:util parseArgs that turns its exceptions into usage errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseCommandArgs<T extends Options>(argv: string[], options: T, positionals = 0) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options,
      allowPositionals: true as const,
      strict: true as const,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
  if (parsed.positionals.length > positionals) {
    throw new UsageError(`unexpected argument: ${parsed.positionals[positionals]}`);
  }
  return parsed;
}

export function requirePositional(positionals: string[], index: number, name: string): string {
  const value = positionals[index];
  if (value === undefined || value === '') throw new UsageError(`missing ${name}`);
  return value;
}

export function parsePositiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} must be a positive integer, got "${value}"`);
  }
  return Number(value);
}

export const DATA_OPTION = { data: { type: 'string' as const, default: './data' } };
