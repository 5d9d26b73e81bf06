/**
 * `pricing serve [--role all|api|ingest]`: runs the service until SIGINT/SIGTERM, then closes
 * gracefully. HTTP roles print `listening on <url>`; the ingest role prints
 * `ingest running as <owner>`. PRICING_CLOCK_OFFSET_FILE shifts the process clock (tests only).
 */
import { applyHeapPolicy } from '../boot/heap-policy.ts';
import { clockFromEnv } from '../boot/offset-clock.ts';
import { resolveServeConfig, ConfigError } from '../config.ts';
import { startService } from '../main.ts';
import { FxTableError, loadFxTable } from '../ingest/fx.ts';
import { loadFeeModel } from '../markets/fees.ts';
import { loadLiveSettings, MarketsFileError } from '../markets/live/markets-file.ts';
import { parseCommandArgs, UsageError } from './args.ts';

const OPTIONS = {
  role: { type: 'string' as const },
  port: { type: 'string' as const },
  host: { type: 'string' as const },
  data: { type: 'string' as const },
  'database-url': { type: 'string' as const },
  'pg-schema': { type: 'string' as const },
  'redis-url': { type: 'string' as const },
  'redis-prefix': { type: 'string' as const },
  'lease-ms': { type: 'string' as const },
  source: { type: 'string' as const },
  markets: { type: 'string' as const },
  seed: { type: 'string' as const },
  'backfill-days': { type: 'string' as const },
  'backfill-items': { type: 'string' as const },
  'sim-items': { type: 'string' as const },
  'catalog-items': { type: 'string' as const },
  'sim-depth-items': { type: 'string' as const },
  'first-wave-wait-ms': { type: 'string' as const },
  fx: { type: 'string' as const },
  record: { type: 'string' as const },
  'record-max-mb': { type: 'string' as const },
  fees: { type: 'string' as const },
  'inventory-url': { type: 'string' as const },
  'log-level': { type: 'string' as const },
  'access-log': { type: 'boolean' as const },
  'webhooks-allow-private': { type: 'boolean' as const },
  'no-terminal': { type: 'boolean' as const },
  'terminal-per-minute': { type: 'string' as const },
  'stream-replay-minutes': { type: 'string' as const },
  'metrics-port': { type: 'string' as const },
  'metrics-host': { type: 'string' as const },
  'metrics-token': { type: 'string' as const },
};

function readConfig(argv: string[]) {
  const { values } = parseCommandArgs(argv, OPTIONS);
  try {
    const config = resolveServeConfig({
      role: values.role,
      port: values.port,
      host: values.host,
      dataDir: values.data,
      databaseUrl: values['database-url'],
      pgSchema: values['pg-schema'],
      redisUrl: values['redis-url'],
      redisPrefix: values['redis-prefix'],
      leaseMs: values['lease-ms'],
      source: values.source,
      marketsFile: values.markets,
      seed: values.seed,
      backfillDays: values['backfill-days'],
      backfillItems: values['backfill-items'],
      simItems: values['sim-items'],
      catalogItems: values['catalog-items'],
      simDepthItems: values['sim-depth-items'],
      firstWaveWaitMs: values['first-wave-wait-ms'],
      fxFile: values.fx,
      recordDir: values.record,
      recordMaxMb: values['record-max-mb'],
      feesFile: values.fees,
      inventoryUrl: values['inventory-url'],
      logLevel: values['log-level'],
      accessLog: values['access-log'],
      webhooksAllowPrivate: values['webhooks-allow-private'],
      terminal: values['no-terminal'] ? false : undefined,
      terminalPerMinute: values['terminal-per-minute'],
      streamReplayMinutes: values['stream-replay-minutes'],
      metricsPort: values['metrics-port'],
      metricsHost: values['metrics-host'],
      metricsToken: values['metrics-token'],
    });
    if (config.source === 'live') loadLiveSettings(config.marketsFile);
    return config;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof MarketsFileError) {
      throw new UsageError(error.message);
    }
    throw error;
  }
}

/** The fee and FX files are read now, so a bad one is a usage error before anything starts. */
async function checkFiles(config: ReturnType<typeof readConfig>): Promise<void> {
  if (config.feesFile) {
    try {
      loadFeeModel(config.feesFile);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  if (config.fxFile) {
    try {
      await loadFxTable(config.fxFile);
    } catch (error) {
      if (error instanceof FxTableError) throw new UsageError(error.message);
      throw error;
    }
  }
}

export async function serveCommand(argv: string[]): Promise<number> {
  const config = readConfig(argv);
  await checkFiles(config);
  const service = await startService(config, clockFromEnv());
  // After the start: its catalogs, book and payloads are built under V8's own heap growth, which
  // runs fewer full collections while the heaps fill (docs/operating.md, "Memory: plan for 1 GB").
  applyHeapPolicy();
  if (service.demoKey) {
    console.log(`demo API key (Enterprise, shown once; also in ${config.dataDir}/demo-key.txt):`);
    console.log(service.demoKey);
  }
  if (service.metricsUrl !== null) console.log(`metrics on ${service.metricsUrl}`);
  if (service.url !== null) console.log(`listening on ${service.url}`);
  else {
    console.log(`ingest running as ${service.leaseOwner}`);
    // Ingest timers are unref'd and sockets come and go with outages: stay up until a signal.
    setInterval(() => {}, 1 << 30);
  }
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: closing`);
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  return 0;
}
