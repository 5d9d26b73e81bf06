/**
 * `pricing markets check [--markets FILE] [--market ID]... [--json] [--fx FILE] [--timeout S]`:
 * one bounded round of real requests per enabled market (or per `--market`, enabled or not),
 * and a report per market and game. Exit 0 when every checked market passed, 3 otherwise,
 * 2 on usage errors (an unknown market, a bad markets file).
 */
import { loadCatalogs } from '../catalog/index.ts';
import { clockFromEnv } from '../boot/offset-clock.ts';
import { checkFx } from '../boot/markets-check/check-fx.ts';
import { formatCheckReport } from '../boot/markets-check/format-report.ts';
import { runMarketsCheck } from '../boot/markets-check/run-check.ts';
import { SECOND } from '../domain/clock.ts';
import { createUndiciTransport } from '../markets/http/undici-transport.ts';
import {
  loadLiveSettings,
  MarketsFileError,
  type LiveMarket,
  type LiveSettings,
} from '../markets/live/markets-file.ts';
import { parseCommandArgs, parsePositiveInt, UsageError } from './args.ts';
import type { CliIo } from './io.ts';

export const CHECK_FAILED_EXIT = 3;

const CHECK_OPTIONS = {
  markets: { type: 'string' as const },
  market: { type: 'string' as const, multiple: true },
  json: { type: 'boolean' as const },
  fx: { type: 'string' as const },
  timeout: { type: 'string' as const },
};

function settingsFrom(path: string | undefined, env: NodeJS.ProcessEnv): LiveSettings {
  try {
    return loadLiveSettings(path ?? env.PRICING_MARKETS_FILE ?? null);
  } catch (error) {
    if (error instanceof MarketsFileError) throw new UsageError(error.message);
    throw error;
  }
}

function chosenMarkets(settings: LiveSettings, named: readonly string[] | undefined): LiveMarket[] {
  if (!named || named.length === 0) return [...settings.markets.values()].filter((m) => m.enabled);
  return named.map((id) => {
    const live = settings.markets.get(id as never);
    if (!live) {
      const known = [...settings.markets.keys()].join(', ');
      throw new UsageError(`--market ${id}: no live connector (live markets: ${known})`);
    }
    return live;
  });
}

async function check(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, CHECK_OPTIONS);
  const settings = settingsFrom(values.markets, io.env);
  const markets = chosenMarkets(settings, values.market as string[] | undefined);
  const timeoutSeconds = parsePositiveInt(values.timeout, '--timeout');
  const clock = clockFromEnv(io.env);
  const transport = createUndiciTransport();
  try {
    const fx = await checkFx({
      fxFile: values.fx ?? null,
      url: settings.fxUrl,
      clock,
      transport,
    });
    const report = await runMarketsCheck(markets, {
      catalogs: loadCatalogs(),
      fx: fx.table,
      clock,
      transport,
      env: io.env,
      timeoutMs: timeoutSeconds === undefined ? null : timeoutSeconds * SECOND,
    });
    io.stdout.write(
      values.json
        ? `${JSON.stringify({ ...report, fxProblem: fx.problem }, null, 2)}\n`
        : formatCheckReport(report, fx.problem),
    );
    return report.passed ? 0 : CHECK_FAILED_EXIT;
  } finally {
    await transport.close();
  }
}

export async function marketsCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'check') return check(rest, io);
  if (sub === undefined) throw new UsageError('missing the markets command (known: check)');
  throw new UsageError(`unknown markets command "${sub}" (known: check)`);
}
