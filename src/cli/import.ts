/**
 * `pricing import FILE.ndjson`: loads observations through the normal ingest path into the
 * configured store. SQLite: refused while a server holds the data dir (its in-memory book would
 * not see them). PostgreSQL: allowed while servers run; with REDIS_URL each committed chunk is
 * also published on the change bus, so running API processes apply it at once (without Redis
 * they see it after their next reload or restart). Exit code 0 when every line was stored,
 * 3 when some lines were rejected (the good ones are stored all the same).
 */
import { existsSync } from 'node:fs';
import pino from 'pino';
import { createChangePublisher } from '../boot/change-publisher.ts';
import { withBucketHistory } from '../attributes/history-recorder.ts';
import { createPriceStore } from '../boot/stores.ts';
import { loadCatalogs } from '../catalog/index.ts';
import type { StoreConfig } from '../config.ts';
import { systemClock } from '../domain/clock.ts';
import { createRedisChangeBus } from '../events/redis-change-bus.ts';
import { DEFAULT_FX, loadFxTable } from '../ingest/fx.ts';
import { importFile, type ImportSummary } from '../ingest/import-file.ts';
import { leaseOwner } from '../ingest/lease.ts';
import { Book } from '../book/book.ts';
import {
  STORE_OPTIONS,
  parseCommandArgs,
  requirePositional,
  storeConfigFrom,
  UsageError,
} from './args.ts';
import { dataPaths, runningServerPid } from '../boot/data-dir.ts';
import { printError, printLine, type CliIo } from './io.ts';

/** `pricing import` stored the good lines but rejected others. */
export const IMPORT_REJECTED_LINES_EXIT = 3;

/** `3 book sides (1 new)`: new is a row the store did not hold, or held an older copy of. */
function stored(summary: ImportSummary, kind: 'sides' | 'sales' | 'listings', label: string) {
  return `${summary.written[kind]} ${label} (${summary.changed[kind]} new)`;
}

function report(file: string, summary: ImportSummary, io: CliIo): void {
  for (const rejection of summary.rejected) {
    printError(io, `line ${rejection.line}: ${rejection.code}: ${rejection.reason}`);
  }
  if (summary.rejectedCount > summary.rejected.length) {
    printError(io, `… and ${summary.rejectedCount - summary.rejected.length} more rejected lines`);
  }
  printLine(
    io,
    `${file}: ${summary.lines} lines, ${summary.accepted} accepted, ${summary.rejectedCount} ` +
      `rejected; stored ${stored(summary, 'sides', 'book sides')}, ` +
      `${stored(summary, 'sales', 'sales')}, ${stored(summary, 'listings', 'listings')}`,
  );
}

export function refuseWhileServing(config: StoreConfig): void {
  if (config.databaseUrl !== null) return;
  const paths = dataPaths(config.dataDir);
  const pid = runningServerPid(paths);
  if (pid !== null) {
    throw new Error(
      `a server (pid ${pid}) is serving ${paths.dir}; stop it before importing, ` +
        `or import into another data dir (its in-memory book would not see the new data)`,
    );
  }
}

/** Where committed chunks go besides the store: the change bus when there is one. */
export function changeSink(config: StoreConfig): {
  sink: Pick<Book, 'apply'>;
  close(): Promise<void>;
} {
  if (config.databaseUrl === null || config.redisUrl === null) {
    return { sink: new Book(), close: async () => {} };
  }
  const logger = pino({ level: 'warn' }, process.stderr);
  const bus = createRedisChangeBus({ url: config.redisUrl, prefix: config.redisPrefix, logger });
  const publisher = createChangePublisher(bus, `import:${leaseOwner()}`, logger);
  return {
    sink: publisher,
    close: async () => {
      await publisher.flush();
      await bus.close();
    },
  };
}

export async function importCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { ...STORE_OPTIONS, fx: { type: 'string' } },
    1,
  );
  const file = requirePositional(positionals, 0, 'FILE.ndjson');
  if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const config = storeConfigFrom(values, io.env);
  refuseWhileServing(config);
  const { prices: store, history } = createPriceStore(config, systemClock);
  const changes = changeSink(config);
  try {
    await store.init();
    const fx = values.fx ? await loadFxTable(values.fx) : DEFAULT_FX;
    const catalogs = loadCatalogs();
    const summary = await importFile(file, {
      catalogs,
      fx,
      book: changes.sink,
      store: history ? withBucketHistory(store, history, catalogs.cs2) : store,
      clock: systemClock,
    });
    report(file, summary, io);
    return summary.rejectedCount > 0 ? IMPORT_REJECTED_LINES_EXIT : 0;
  } finally {
    await changes.close();
    await store.close();
  }
}
