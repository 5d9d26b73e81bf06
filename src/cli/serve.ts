/** `pricing serve`: runs the service until SIGINT/SIGTERM, then closes gracefully. */
import { resolveServeConfig, ConfigError } from '../config.ts';
import { startService } from '../main.ts';
import { parseCommandArgs, UsageError } from './args.ts';

const OPTIONS = {
  port: { type: 'string' as const },
  host: { type: 'string' as const },
  data: { type: 'string' as const },
  source: { type: 'string' as const },
  seed: { type: 'string' as const },
  'backfill-days': { type: 'string' as const },
  'backfill-items': { type: 'string' as const },
  'sim-items': { type: 'string' as const },
  fx: { type: 'string' as const },
  fees: { type: 'string' as const },
  'log-level': { type: 'string' as const },
};

function readConfig(argv: string[]) {
  const { values } = parseCommandArgs(argv, OPTIONS);
  try {
    return resolveServeConfig({
      port: values.port,
      host: values.host,
      dataDir: values.data,
      source: values.source,
      seed: values.seed,
      backfillDays: values['backfill-days'],
      backfillItems: values['backfill-items'],
      simItems: values['sim-items'],
      fxFile: values.fx,
      feesFile: values.fees,
      logLevel: values['log-level'],
    });
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

export async function serveCommand(argv: string[]): Promise<number> {
  const config = readConfig(argv);
  const service = await startService(config);
  if (service.demoKey) {
    console.log(`demo API key (Enterprise, shown once; also in ${config.dataDir}/demo-key.txt):`);
    console.log(service.demoKey);
  }
  console.log(`listening on ${service.url}`);
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
