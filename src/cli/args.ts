/** Thin wrapper over node:util parseArgs that turns its exceptions into usage errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, resolveStoreConfig, type StoreConfig } from '../config.ts';

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

/** Where the admin commands find state: the same flags and env as `serve` (config.ts). */
export const STORE_OPTIONS = {
  data: { type: 'string' as const },
  'database-url': { type: 'string' as const },
  'pg-schema': { type: 'string' as const },
  'redis-url': { type: 'string' as const },
  'redis-prefix': { type: 'string' as const },
};

type StoreFlags = Partial<Record<keyof typeof STORE_OPTIONS, string | boolean | undefined>>;

export function storeConfigFrom(values: StoreFlags): StoreConfig {
  try {
    return resolveStoreConfig({
      dataDir: values.data,
      databaseUrl: values['database-url'],
      pgSchema: values['pg-schema'],
      redisUrl: values['redis-url'],
      redisPrefix: values['redis-prefix'],
    });
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}
