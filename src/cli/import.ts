/**
 * `pricing import FILE.ndjson`: loads observations through the normal ingest path into the
 * data dir's store. Refused while a server holds the data dir (its book would not see them).
 */
import { existsSync } from 'node:fs';
import { loadCatalogs } from '../catalog/index.ts';
import { systemClock } from '../domain/clock.ts';
import { DEFAULT_FX, loadFxTable } from '../ingest/fx.ts';
import { importFile, type ImportSummary } from '../ingest/import-file.ts';
import { createSqlitePriceStore } from '../store/sqlite/sqlite-price-store.ts';
import { Book } from '../book/book.ts';
import { DATA_OPTION, parseCommandArgs, requirePositional, UsageError } from './args.ts';
import { dataPaths, ensureDataDir, runningServerPid } from './data-dir.ts';

function report(file: string, summary: ImportSummary): void {
  for (const rejection of summary.rejected) {
    console.error(`line ${rejection.line}: ${rejection.code}: ${rejection.reason}`);
  }
  if (summary.rejectedCount > summary.rejected.length) {
    console.error(`… and ${summary.rejectedCount - summary.rejected.length} more rejected lines`);
  }
  const { sides, sales, listings } = summary.written;
  console.log(
    `${file}: ${summary.lines} lines, ${summary.accepted} accepted, ${summary.rejectedCount} ` +
      `rejected; stored ${sides} book sides, ${sales} sales, ${listings} listings`,
  );
}

export async function importCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { ...DATA_OPTION, fx: { type: 'string' } },
    1,
  );
  const file = requirePositional(positionals, 0, 'FILE.ndjson');
  if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const paths = dataPaths(values.data);
  const pid = runningServerPid(paths);
  if (pid !== null) {
    throw new Error(
      `a server (pid ${pid}) is serving ${paths.dir}; stop it before importing, ` +
        `or import into another data dir (its in-memory book would not see the new data)`,
    );
  }
  ensureDataDir(paths);
  const store = createSqlitePriceStore({ path: paths.prices });
  try {
    await store.init();
    const fx = values.fx ? await loadFxTable(values.fx) : DEFAULT_FX;
    const summary = await importFile(file, {
      catalogs: loadCatalogs(),
      fx,
      book: new Book(),
      store,
      clock: systemClock,
    });
    report(file, summary);
    return summary.accepted === 0 && summary.lines > 0 ? 1 : 0;
  } finally {
    await store.close();
  }
}
