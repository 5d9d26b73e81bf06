/**
 * One schema for flags and environment, validated once at boot and typed everywhere.
 * Flags win over environment variables, which win over defaults.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export const ServeConfigSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  host: Type.String({ minLength: 1, default: '127.0.0.1' }),
  dataDir: Type.String({ minLength: 1, default: './data' }),
  source: Type.Union([Type.Literal('sim'), Type.Literal('none')], { default: 'sim' }),
  seed: Type.Integer({ default: 42 }),
  backfillDays: Type.Number({ minimum: 0, maximum: 90, default: 7 }),
  backfillItems: Type.Integer({ minimum: 0, default: 300 }),
  simItems: Type.Integer({ minimum: 0, default: 0 }),
  fxFile: Type.Union([Type.String(), Type.Null()], { default: null }),
  feesFile: Type.Union([Type.String(), Type.Null()], { default: null }),
  logLevel: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  trustProxy: Type.Boolean({ default: false }),
});
export type ServeConfig = Static<typeof ServeConfigSchema>;

const ENV_KEYS: Record<keyof ServeConfig, string> = {
  port: 'PORT',
  host: 'HOST',
  dataDir: 'PRICING_DATA',
  source: 'PRICING_SOURCE',
  seed: 'PRICING_SEED',
  backfillDays: 'PRICING_BACKFILL_DAYS',
  backfillItems: 'PRICING_BACKFILL_ITEMS',
  simItems: 'PRICING_SIM_ITEMS',
  fxFile: 'PRICING_FX_FILE',
  feesFile: 'PRICING_FEES_FILE',
  logLevel: 'LOG_LEVEL',
  trustProxy: 'TRUST_PROXY',
};

export class ConfigError extends Error {}

/** Merges flags over env over defaults, converts types, and validates against the schema. */
export function resolveServeConfig(
  flags: Partial<Record<keyof ServeConfig, string | boolean | undefined>>,
  env: NodeJS.ProcessEnv = process.env,
): ServeConfig {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ENV_KEYS) as (keyof ServeConfig)[]) {
    const value = flags[key] ?? env[ENV_KEYS[key]];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Default(ServeConfigSchema, raw);
  const converted = Value.Convert(ServeConfigSchema, withDefaults);
  const errors = [...Value.Errors(ServeConfigSchema, converted)];
  if (errors.length > 0) {
    const messages = errors.map((e) => `${e.path.slice(1) || 'config'}: ${e.message}`);
    throw new ConfigError(`invalid configuration: ${[...new Set(messages)].join('; ')}`);
  }
  return converted as ServeConfig;
}
