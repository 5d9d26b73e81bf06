/**
 * One schema for flags and environment, validated once at boot and typed everywhere.
 * Flags win over environment variables, which win over defaults. DATABASE_URL and REDIS_URL
 * are honoured in every role: set, they move the stores to PostgreSQL and the quotas (and
 * change events, leases) to Redis; unset, everything stays embedded under the data dir.
 */
import { Type, type Static, type TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import ipaddr from 'ipaddr.js';
import { parseTrustProxy, TrustProxyError } from './access/trust-proxy.ts';

export const ROLES = ['all', 'api', 'ingest'] as const;
export type Role = (typeof ROLES)[number];

const optionalUrl = Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null });

/** Where state lives: shared by `serve` and the admin commands (accounts, keys, import). */
const STORE_FIELDS = {
  dataDir: Type.String({ minLength: 1, default: './data' }),
  databaseUrl: optionalUrl,
  pgSchema: Type.String({ pattern: '^[a-z_][a-z0-9_]{0,62}$', default: 'public' }),
  redisUrl: optionalUrl,
  redisPrefix: Type.String({ minLength: 1, maxLength: 100, default: 'pricing:' }),
};

export const StoreConfigSchema = Type.Object(STORE_FIELDS);
export type StoreConfig = Static<typeof StoreConfigSchema>;

export const ServeConfigSchema = Type.Object({
  role: Type.Union(
    ROLES.map((role) => Type.Literal(role)),
    { default: 'all' },
  ),
  port: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  host: Type.String({ minLength: 1, default: '127.0.0.1' }),
  ...STORE_FIELDS,
  source: Type.Union([Type.Literal('sim'), Type.Literal('live'), Type.Literal('none')], {
    default: 'sim',
  }),
  /** Live sources' settings (`--markets FILE`); null: every connector with its defaults. */
  marketsFile: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null }),
  seed: Type.Integer({ default: 42 }),
  backfillDays: Type.Number({ minimum: 0, maximum: 90, default: 7 }),
  backfillItems: Type.Integer({ minimum: 0, default: 150 }),
  simItems: Type.Integer({ minimum: 0, default: 0 }),
  /** Each game's catalog cut to N items, every category's most popular in turn (0: all). */
  catalogItems: Type.Integer({ minimum: 0, default: 0 }),
  /**
   * Simulated items per fetch, besides the ten most popular and the docs' examples, that carry
   * listings and per-item depth, in rotation (src/markets/sim/world.ts; 20 when unset).
   */
  simDepthItems: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  /**
   * How long a first start's popular backfill band waits for the first polling wave
   * (boot/first-backfill.ts); 0 starts it as soon as the bulk view is built.
   */
  firstWaveWaitMs: Type.Integer({ minimum: 0, maximum: 600_000, default: 60_000 }),
  fxFile: Type.Union([Type.String(), Type.Null()], { default: null }),
  /** `--record DIR` (live only): every upstream response is written there (boot/recording/). */
  recordDir: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null }),
  /** The recording's size bound: the oldest segments are deleted beyond it. */
  recordMaxMb: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 256 }),
  feesFile: Type.Union([Type.String(), Type.Null()], { default: null }),
  /** Where the built catalogs are cached (src/catalog/catalog-cache.ts); null: the data dir. */
  catalogCacheDir: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null }),
  /** Origin of Steam's public inventory endpoint (src/inventory); a stand-in in tests. */
  inventoryUrl: Type.String({
    pattern: '^https?://[^\\s/]+',
    default: 'https://steamcommunity.com',
  }),
  logLevel: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /** Webhook URLs may resolve to loopback/private addresses (`--webhooks-allow-private`). */
  webhooksAllowPrivate: Type.Boolean({ default: false }),
  /** One info line per HTTP request (method, URL, status, time); off by default. */
  accessLog: Type.Boolean({ default: false }),
  /** The free web terminal at / (src/terminal); `--no-terminal` turns it off. */
  terminal: Type.Boolean({ default: true }),
  /** How long price-stream events stay replayable by `Last-Event-ID` (at least 10 minutes). */
  streamReplayMinutes: Type.Integer({ minimum: 10, maximum: 1_440, default: 10 }),
  /** Terminal route requests per client IP per minute. */
  terminalPerMinute: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 120 }),
  /** `true`, `false` or the trusted proxies' addresses / CIDR ranges (access/trust-proxy.ts). */
  trustProxy: Type.String({ default: 'false' }),
  /**
   * The ingest role's per-market lease: a standby polls within it and a second of the holder's
   * death, so first prices come within 15 s of a kill (BENCHMARKS.md#failover).
   */
  leaseMs: Type.Integer({ minimum: 300, maximum: 600_000, default: 6_000 }),
  /** The operator listener for Prometheus metrics; unset: no metrics (see boot/metrics.ts). */
  metricsPort: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  metricsHost: Type.String({ minLength: 1, default: '127.0.0.1' }),
  metricsToken: Type.Optional(Type.String({ minLength: 16, pattern: '^\\S+$' })),
});
export type ServeConfig = Static<typeof ServeConfigSchema>;

const ENV_KEYS: Record<keyof ServeConfig, string> = {
  role: 'PRICING_ROLE',
  port: 'PORT',
  host: 'HOST',
  dataDir: 'PRICING_DATA',
  databaseUrl: 'DATABASE_URL',
  pgSchema: 'PRICING_PG_SCHEMA',
  redisUrl: 'REDIS_URL',
  redisPrefix: 'PRICING_REDIS_PREFIX',
  source: 'PRICING_SOURCE',
  marketsFile: 'PRICING_MARKETS_FILE',
  seed: 'PRICING_SEED',
  backfillDays: 'PRICING_BACKFILL_DAYS',
  backfillItems: 'PRICING_BACKFILL_ITEMS',
  simItems: 'PRICING_SIM_ITEMS',
  catalogItems: 'PRICING_CATALOG_ITEMS',
  simDepthItems: 'PRICING_SIM_DEPTH_ITEMS',
  firstWaveWaitMs: 'PRICING_FIRST_WAVE_WAIT_MS',
  fxFile: 'PRICING_FX_FILE',
  recordDir: 'PRICING_RECORD_DIR',
  recordMaxMb: 'PRICING_RECORD_MAX_MB',
  feesFile: 'PRICING_FEES_FILE',
  catalogCacheDir: 'PRICING_CATALOG_CACHE_DIR',
  inventoryUrl: 'PRICING_INVENTORY_URL',
  logLevel: 'LOG_LEVEL',
  accessLog: 'PRICING_ACCESS_LOG',
  webhooksAllowPrivate: 'PRICING_WEBHOOKS_ALLOW_PRIVATE',
  terminal: 'PRICING_TERMINAL',
  terminalPerMinute: 'PRICING_TERMINAL_PER_MINUTE',
  streamReplayMinutes: 'PRICING_STREAM_REPLAY_MINUTES',
  trustProxy: 'TRUST_PROXY',
  leaseMs: 'PRICING_LEASE_MS',
  metricsPort: 'PRICING_METRICS_PORT',
  metricsHost: 'PRICING_METRICS_HOST',
  metricsToken: 'PRICING_METRICS_TOKEN',
};

export class ConfigError extends Error {}

type Flags<T> = Partial<Record<keyof T, string | boolean | undefined>>;

function resolve<S extends TObject>(
  schema: S,
  flags: Flags<Static<S>>,
  env: NodeJS.ProcessEnv,
): Static<S> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties) as (keyof Static<S> & keyof ServeConfig)[]) {
    const value = flags[key] ?? env[ENV_KEYS[key]];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const sloppy = sloppyNumbers(schema, raw);
  const withDefaults = Value.Default(schema, raw);
  const converted = Value.Convert(schema, withDefaults);
  const errors = [...Value.Errors(schema, converted)];
  if (errors.length > 0 || sloppy.length > 0) {
    const messages = [
      ...sloppy,
      ...errors.map((e) => `${e.path.slice(1) || 'config'}: ${e.message}`),
    ];
    throw new ConfigError(`invalid configuration: ${[...new Set(messages)].join('; ')}`);
  }
  return converted as Static<S>;
}

/**
 * TypeBox's conversion reads `1e3`, `0x10`, `1.5` or `Infinity` as numbers (`--port 1e3` became 1):
 * integer settings take plain decimal integers only, number settings plain decimals.
 */
function sloppyNumbers(schema: TObject, raw: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== 'string') continue;
    const property = schema.properties[key] as { type?: unknown } | undefined;
    const pattern =
      property?.type === 'integer'
        ? /^-?\d+$/
        : property?.type === 'number'
          ? /^-?\d+(\.\d+)?$/
          : null;
    if (pattern && !pattern.test(value.trim())) {
      const kind =
        property?.type === 'integer' ? 'a plain decimal integer' : 'a plain decimal number';
      problems.push(`${key}: must be ${kind}, got ${JSON.stringify(value)}`);
    }
  }
  return problems;
}

/** The split roles share state through PostgreSQL and talk through Redis: both are required. */
function checkRole(config: ServeConfig): void {
  if (config.role === 'all') return;
  const missing = [
    config.databaseUrl === null ? 'DATABASE_URL (--database-url)' : null,
    config.redisUrl === null ? 'REDIS_URL (--redis-url)' : null,
  ].filter((name) => name !== null);
  if (missing.length === 0) return;
  throw new ConfigError(
    `invalid configuration: role ${config.role} requires ${missing.join(' and ')}: ingest and ` +
      'API processes share the store through PostgreSQL and changes through Redis',
  );
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  return ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback';
}

/** Metrics are never served on the public port, nor beyond loopback without a token. */
function checkMetrics(config: ServeConfig): void {
  if (config.metricsPort === undefined) return;
  const problems: string[] = [];
  if (config.role !== 'ingest' && config.metricsPort !== 0 && config.metricsPort === config.port) {
    problems.push('metricsPort must differ from port: metrics are never served on the API port');
  }
  if (config.metricsToken === undefined && !isLoopback(config.metricsHost)) {
    problems.push(
      `metricsToken (PRICING_METRICS_TOKEN) is required when metrics listen on ${config.metricsHost}, which is not a loopback address`,
    );
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
}

/** Only upstream responses are recorded: with the simulator or no source there are none. */
function checkRecording(config: ServeConfig): void {
  if (config.recordDir !== null && config.source !== 'live') {
    throw new ConfigError(
      `invalid configuration: recordDir (--record) needs --source live, not ${config.source}`,
    );
  }
}

function checkTrustProxy(config: ServeConfig): void {
  try {
    parseTrustProxy(config.trustProxy);
  } catch (error) {
    if (error instanceof TrustProxyError)
      throw new ConfigError(`invalid configuration: ${error.message}`);
    throw error;
  }
}

/** Merges flags over env over defaults, converts types, and validates against the schema. */
export function resolveServeConfig(
  flags: Flags<ServeConfig>,
  env: NodeJS.ProcessEnv = process.env,
): ServeConfig {
  const config = resolve(ServeConfigSchema, flags, env);
  checkRole(config);
  checkMetrics(config);
  checkRecording(config);
  checkTrustProxy(config);
  return config;
}

/** The store settings alone, for the admin commands. */
export function resolveStoreConfig(
  flags: Flags<StoreConfig>,
  env: NodeJS.ProcessEnv = process.env,
): StoreConfig {
  return resolve(StoreConfigSchema, flags, env);
}
