/** Thin wrapper over node:util parseArgs that turns its exceptions into usage errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, resolveStoreConfig, type StoreConfig } from '../config.ts';

export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** A string option at the end, before another option (`--x`), or before a word like `-5`. */
function dashValueProblem(argv: readonly string[], index: number, options: Options) {
  const flag = argv[index]!;
  const name = flag.startsWith('--') && !flag.includes('=') ? flag.slice(2) : null;
  if (name === null || options[name]?.type !== 'string') return null;
  const next = argv[index + 1];
  if (next === undefined) return { missing: flag };
  if (!next.startsWith('-') || next === '-') return null;
  return next.startsWith('--') ? { missing: flag } : { joined: `${flag}=${next}` };
}

/**
 * `--per-minute -5` is a value, not an option: joined into `--per-minute=-5` so the command's
 * own validation answers. A string option followed by another option is missing its value.
 */
function attachDashValues(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    if (argv[index] === '--') return [...out, ...argv.slice(index)];
    const problem = dashValueProblem(argv, index, options);
    if (problem && 'missing' in problem) throw new UsageError(`${problem.missing} needs a value`);
    out.push(problem?.joined ?? argv[index]!);
    if (problem) index += 1;
  }
  return out;
}

export function parseCommandArgs<T extends Options>(argv: string[], options: T, positionals = 0) {
  let parsed;
  try {
    parsed = parseArgs({
      args: attachDashValues(argv, options),
      options,
      allowPositionals: true as const,
      strict: true as const,
      tokens: true as const,
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
  if (parsed.positionals.length > positionals) {
    throw new UsageError(`unexpected argument: ${parsed.positionals[positionals]}`);
  }
  refuseEmptyValues(parsed.values);
  refuseRepeats(parsed.tokens, options);
  return parsed;
}

/** `--plan pro --plan developer` is ambiguous: only options meant to repeat may. */
function refuseRepeats(tokens: readonly { kind: string; name?: string }[], options: Options) {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    if (seen.has(token.name) && options[token.name]?.multiple !== true) {
      throw new UsageError(`--${token.name} is given more than once`);
    }
    seen.add(token.name);
  }
}

/** `--data ""` (an unset shell variable) is a mistake, never "use the default". */
function refuseEmptyValues(values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values)) {
    const given = Array.isArray(value) ? value : [value];
    if (given.some((one) => typeof one === 'string' && one.trim() === '')) {
      throw new UsageError(`--${name} needs a value, got an empty one`);
    }
  }
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

export function storeConfigFrom(values: StoreFlags, env: NodeJS.ProcessEnv): StoreConfig {
  try {
    return resolveStoreConfig(
      {
        dataDir: values.data,
        databaseUrl: values['database-url'],
        pgSchema: values['pg-schema'],
        redisUrl: values['redis-url'],
        redisPrefix: values['redis-prefix'],
      },
      env,
    );
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}
