/**
 * `pricing replay DIR [--data D] [--fx FILE]`: feeds a recording of `serve --record` through
 * the ingest path into the configured store (refused while a server holds an SQLite data dir,
 * like `import`). `--to-fixture OUT [--market ID]...` instead writes the newest recorded answer
 * of each market, game and request kind as a connector fixture into OUT.
 */
import { existsSync } from 'node:fs';
import { withBucketHistory } from '../attributes/history-recorder.ts';
import { recordingToFixtures } from '../boot/recording/to-fixture.ts';
import { replayRecording } from '../boot/recording/replay.ts';
import { RecordingError } from '../boot/recording/recording-files.ts';
import { createPriceStore } from '../boot/stores.ts';
import { loadCatalogs } from '../catalog/index.ts';
import { systemClock } from '../domain/clock.ts';
import { DEFAULT_FX, loadFxTable } from '../ingest/fx.ts';
import {
  parseCommandArgs,
  requirePositional,
  STORE_OPTIONS,
  storeConfigFrom,
  UsageError,
} from './args.ts';
import { changeSink, refuseWhileServing } from './import.ts';
import { printLine, type CliIo } from './io.ts';

const OPTIONS = {
  ...STORE_OPTIONS,
  fx: { type: 'string' as const },
  'to-fixture': { type: 'string' as const },
  market: { type: 'string' as const, multiple: true },
};

async function intoStore(
  dir: string,
  values: Parameters<typeof storeConfigFrom>[0] & { fx?: string },
  io: CliIo,
) {
  const config = storeConfigFrom(values, io.env);
  refuseWhileServing(config);
  const { prices: store, history } = createPriceStore(config, systemClock);
  const changes = changeSink(config);
  try {
    await store.init();
    const catalogs = loadCatalogs();
    const summary = await replayRecording(dir, {
      catalogs,
      store: history ? withBucketHistory(store, history, catalogs.cs2) : store,
      book: changes.sink,
      fallbackFx: values.fx ? await loadFxTable(values.fx) : DEFAULT_FX,
    });
    printLine(
      io,
      `${dir}: ${summary.polls} polls replayed (${summary.failedPolls} failed), ` +
        `${summary.observations} observations, ${summary.sides} book sides stored` +
        (summary.skipped > 0
          ? `; ${summary.skipped} polls of markets without a connector skipped`
          : ''),
    );
  } finally {
    await changes.close();
    await store.close();
  }
}

export async function replayCommand(argv: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseCommandArgs(argv, OPTIONS, 1);
  const dir = requirePositional(positionals, 0, 'DIR');
  if (!existsSync(dir)) throw new UsageError(`no such recording directory: ${dir}`);
  try {
    const out = values['to-fixture'];
    if (out) {
      const markets = (values.market as string[] | undefined) ?? [];
      for (const file of recordingToFixtures(dir, out, loadCatalogs(), markets))
        printLine(io, file);
      return;
    }
    if (values.market) throw new UsageError('--market applies to --to-fixture only');
    await intoStore(dir, values, io);
  } catch (error) {
    if (error instanceof RecordingError) throw new UsageError(error.message);
    throw error;
  }
}
