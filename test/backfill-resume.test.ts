/**
 * A first start's backfill killed halfway resumes after its last written chunk (issue 27
 * point 4): the real CLI is killed with SIGKILL while it writes the popular band, started
 * again, and once it says the band is finished its store holds the same sales and rollups as
 * an uninterrupted run of the same band, nothing twice and nothing missing, with only the
 * chunks left written by the restart. On SQLite, and on PostgreSQL when DATABASE_URL is set: the
 * two run at once (each waits on its servers more than it computes).
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cutTestCatalogs } from '../src/catalog/test-catalogs.ts';
import { manualClock } from '../src/domain/clock.ts';
import { configuredBackfill, EXAMPLE_ITEMS } from '../src/boot/backfill.ts';
import { bandContents, lineDifferences, storedSeries } from '../src/boot/band-contents.ts';
import { BACKFILL_JOB, runPhase, type BandPlace } from '../src/boot/band-resume.ts';
import type { HistoryStore } from '../src/store/history-store.ts';
import type { PriceStore } from '../src/store/price-store.ts';
import { createPostgresPriceStore } from '../src/store/postgres/postgres-price-store.ts';
import {
  adminQuery,
  DATABASE_URL,
  dropSchema,
  needsPostgres,
  testSchemaName,
} from '../src/store/postgres/test-support.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import {
  CATALOG_CUT,
  CATALOG_CUT_ITEMS,
  childEnv,
  startServer,
  tempDataDir,
  type RunningServer,
} from './cli-helpers.ts';

/**
 * A day of 30 items: six chunks of the popular band (the day × ten items each, then the band's
 * last step × ten items each), so a kill after two leaves four to resume: the rest of the day
 * and the step after it, across the window boundary.
 */
const BAND = { seed: 11, backfillDays: 1, backfillItems: 30, fxFile: null, source: 'sim' as const };
/**
 * Live polling runs beside the band: a small simulated universe keeps it light. The band starts
 * without waiting for the first polling wave (up to 30 s of the markets' start jitter per boot).
 */
const ARGS = [
  ...CATALOG_CUT,
  '--first-wave-wait-ms',
  '0',
  '--sim-items',
  '50',
  '--seed',
  String(BAND.seed),
  '--backfill-days',
  String(BAND.backfillDays),
  '--backfill-items',
  String(BAND.backfillItems),
];
/** Hang guard only: a loaded machine may take minutes to boot and write the band. */
const GIVE_UP_MS = 600_000;

type Stores = { prices: PriceStore; history: HistoryStore };

interface Backend {
  env: NodeJS.ProcessEnv;
  /** The stored place of the backfill (read beside the running server), or null. */
  place(): Promise<BandPlace | null>;
  /** The server's store, opened once it has stopped. */
  open(): Promise<Stores>;
  /** An empty store of the same kind for the reference run. */
  scratch(): Promise<Stores>;
  /** Empties the server's store (and data dir) for another try. */
  wipe(): Promise<void>;
}

/**
 * Resolves with what `probe` reads from the server's output once it reads something, checked
 * again on every chunk the server prints (no polling); the deadline only guards against a hang.
 */
function fromOutput<T>(
  what: string,
  server: RunningServer,
  probe: (output: string) => T | null,
): Promise<T> {
  const streams = [server.child.stdout!, server.child.stderr!];
  return new Promise<T>((resolve, reject) => {
    const done = (settle: () => void) => {
      clearTimeout(timer);
      for (const stream of streams) stream.off('data', check);
      server.child.off('exit', check);
      settle();
    };
    const check = () => {
      const value = probe(server.output());
      if (value !== null) return done(() => resolve(value));
      if (server.child.exitCode !== null || server.child.signalCode !== null) {
        done(() =>
          reject(new Error(`${what}: the server ended:\n${server.output().slice(-4000)}`)),
        );
      }
    };
    const timer = setTimeout(
      () =>
        done(() =>
          reject(
            new Error(`${what}: not within ${GIVE_UP_MS} ms:\n${server.output().slice(-4000)}`),
          ),
        ),
      GIVE_UP_MS,
    );
    // After the helper's own listeners (registered first), so output() already holds the chunk.
    for (const stream of streams) stream.on('data', check);
    server.child.on('exit', check);
    check();
  });
}

const parsePlace = (state: string | undefined) =>
  state === undefined ? null : (JSON.parse(state) as BandPlace);

/** The catalogs the servers run on (`CATALOG_CUT`). */
let catalogs: ReturnType<typeof cutTestCatalogs> | null = null;

/** The uninterrupted band ending at `toMs` in a fresh store; the popular phase's chunks. */
async function referenceRun(stores: Stores, toMs: number): Promise<number> {
  const clock = manualClock(toMs + 60 * 60_000);
  catalogs ??= cutTestCatalogs({ items: CATALOG_CUT_ITEMS, keepNames: EXAMPLE_ITEMS });
  const options = await configuredBackfill(BAND, {
    catalogs,
    book: { apply: () => {} },
    store: stores.prices,
    clock,
    toMs,
  });
  const named = await runPhase({ ...options, quiet: true }, { toMs, phase: 'named', done: 0 });
  const popular = await runPhase({ ...options, quiet: true }, named!.next!);
  await stores.prices.flushRollups?.();
  return popular!.totals.chunks;
}

/**
 * The popular band's progress lines: one after each chunk committed while a chunk is at least a
 * tenth of the band (progress.ts prints every ten per cent when stderr is not a terminal).
 */
const popularChunksShown = (output: string) =>
  output.split('\n').filter((line) => line.includes('(popular items) [')).length;

function finishedChunks(output: string): number | null {
  for (const line of output.split('\n')) {
    if (!line.includes('"backfill finished"')) continue;
    return (JSON.parse(line) as { chunks: number }).chunks;
  }
  return null;
}

/** Tries at killing the first server inside the band before the test gives up. */
const KILL_TRIES = 3;

/**
 * Starts the server and SIGKILLs it two chunks into the popular band. The band's last chunks
 * follow the line within a fraction of a second, so on a loaded machine the signal can land
 * after the band ended: that try proves nothing, and it starts over on an empty store.
 */
async function killMidBand(
  backend: Backend,
  start: () => Promise<RunningServer>,
): Promise<BandPlace> {
  for (let tries = 1; ; tries++) {
    const first = await start();
    await fromOutput('two chunks of the popular band', first, (output) =>
      popularChunksShown(output) >= 2 ? true : null,
    );
    await first.stop('SIGKILL');
    const place = await backend.place();
    if (place?.phase === 'popular') return place;
    assert.ok(tries < KILL_TRIES, `killed after the band ended in ${KILL_TRIES} tries`);
    await backend.wipe();
  }
}

/** Kills the server inside the band, starts it again and kills it once the band is finished. */
async function killThenResume(backend: Backend) {
  const servers: RunningServer[] = [];
  const start = async () => {
    const server = await startServer(ARGS, { env: backend.env, timeoutMs: GIVE_UP_MS });
    servers.push(server);
    return server;
  };
  try {
    const killedAt = await killMidBand(backend, start);
    const second = await start();
    const resumedChunks = await fromOutput('the resumed band finished', second, finishedChunks);
    assert.match(second.output(), /resuming the unfinished backfill after the last chunk/);
    // The band's last chunk, its rollups and the cleared place are committed before that line.
    await second.stop('SIGKILL');
    return { killedAt, resumedChunks };
  } finally {
    for (const server of servers) await server.stop('SIGKILL');
  }
}

async function killAndResume(backend: Backend): Promise<void> {
  const { killedAt, resumedChunks } = await killThenResume(backend);
  assert.equal(await backend.place(), null, 'a finished band leaves no place');
  const reference = await backend.scratch();
  const popularChunks = await referenceRun(reference, killedAt.toMs);
  assert.equal(resumedChunks, popularChunks - killedAt.done, 'only the chunks left are written');
  const served = await backend.open();
  try {
    const band = { toMs: killedAt.toMs, days: BAND.backfillDays };
    const series = await storedSeries(reference);
    const expected = await bandContents(reference, band, series);
    assert.ok(expected.sales.length > 0 && series.length > 0);
    const actual = await bandContents(served, band, series);
    for (const kind of ['sales', 'rollups'] as const) {
      const { missing, extra } = lineDifferences(actual[kind], expected[kind]);
      const first = (lines: string[]) => lines.slice(0, 3).join('\n');
      assert.equal(missing.length, 0, `${kind} missing:\n${first(missing)}`);
      assert.equal(extra.length, 0, `${kind} written twice or not expected:\n${first(extra)}`);
    }
  } finally {
    await Promise.all([served.prices.close(), reference.prices.close()]);
  }
}

describe('a backfill killed halfway resumes after its last chunk', { concurrency: true }, () => {
  describe('SQLite', () => {
    const dir = tempDataDir();
    const scratchDir = tempDataDir();
    after(() => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(scratchDir, { recursive: true, force: true });
    });
    const sqliteStores = async (path: string): Promise<Stores> => {
      const store = createSqlitePriceStore({ path });
      await store.init();
      return { prices: store, history: store };
    };
    test('SIGKILL mid-band, restart: the same sales and rollups as one uninterrupted run', () =>
      killAndResume({
        env: childEnv({ PRICING_DATA: dir }),
        async place() {
          let db: Database.Database | null = null;
          try {
            db = new Database(join(dir, 'prices.db'), { readonly: true, fileMustExist: true });
            const row = db
              .prepare('SELECT state FROM job_progress WHERE job = ?')
              .get(BACKFILL_JOB);
            return parsePlace((row as { state: string } | undefined)?.state);
          } catch (error) {
            if (/no such table|unable to open|does not exist/i.test(String(error))) return null;
            throw error;
          } finally {
            db?.close();
          }
        },
        open: () => sqliteStores(join(dir, 'prices.db')),
        scratch: () => sqliteStores(join(scratchDir, 'prices.db')),
        async wipe() {
          rmSync(dir, { recursive: true, force: true });
          mkdirSync(dir);
        },
      }));
  });

  describe('PostgreSQL', needsPostgres, () => {
    const dir = tempDataDir();
    const schema = testSchemaName();
    const scratchSchema = testSchemaName();
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await dropSchema(schema);
      await dropSchema(scratchSchema);
    });
    const pgStores = async (name: string): Promise<Stores> => {
      // A loaded machine may take seconds to start a backend: not this test's outage to report.
      const store = createPostgresPriceStore({
        connectionString: DATABASE_URL,
        schema: name,
        connectionTimeoutMillis: 30_000,
      });
      await store.init();
      return { prices: store, history: store };
    };
    test('SIGKILL mid-band, restart: the same sales and rollups as one uninterrupted run', () =>
      killAndResume({
        env: childEnv({ PRICING_DATA: dir, DATABASE_URL, PRICING_PG_SCHEMA: schema }),
        async place() {
          try {
            const rows = await adminQuery<{ state: string }>(
              'SELECT state FROM job_progress WHERE job = $1',
              [BACKFILL_JOB],
              schema,
            );
            return parsePlace(rows[0]?.state);
          } catch {
            return null;
          }
        },
        open: () => pgStores(schema),
        scratch: () => pgStores(scratchSchema),
        async wipe() {
          rmSync(dir, { recursive: true, force: true });
          mkdirSync(dir);
          await dropSchema(schema);
        },
      }));
  });
});
