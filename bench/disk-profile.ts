/**
 * `npm run bench -- disk-profile`: what the default server writes between 10-minute folds, per
 * table and index. The real server as disk-day starts it (full catalogs, simulator, backfill
 * off, empty data dir); from DISK_PROFILE_SETTLE_S after first prices, at the first moment a
 * DISK_PROFILE_WINDOW_S window fits between two folds (each runs FOLD_POLICY.graceMs after a
 * period's boundary), `strace -f -y -e trace=pwrite64` of all its threads over the window. Then the
 * server is stopped (SIGSTOP) while its data dir is copied, and each write is mapped to a page:
 * a WAL frame by its 24-byte header (page number, then the database size on a commit frame), a
 * write to a database file by its offset; pages to tables and indexes by `dbstat` on the copy.
 * Needs strace(1) and ptrace rights. DISK_PROFILE_PERIOD=1: one whole period instead, from 60 s
 * before a fold to 540 s after it (the fold, slowed by the trace, included), `write` calls
 * traced too (the journal's segment files), files that are not databases summed per name. Per
 * database file it also prints the distinct 4 KiB pages its in-place writes touched: what the
 * kernel counts in `write_bytes` for writes of smaller pages.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { startSteadyServer } from './disk-day.ts';
import { writtenBytes } from './harness.ts';
import { FOLD_POLICY } from '../src/store/sqlite/store-rollups.ts';

const SETTLE_S = Number(process.env.DISK_PROFILE_SETTLE_S ?? 150);
const PERIOD_MS = FOLD_POLICY.closeMs;
const WHOLE_PERIOD = process.env.DISK_PROFILE_PERIOD === '1';
const WINDOW_S = WHOLE_PERIOD ? PERIOD_MS / 1000 : Number(process.env.DISK_PROFILE_WINDOW_S ?? 300);
/** A window starts this long after a boundary (the fold) and ends this long before the next. */
const AFTER_FOLD_MS = 75_000;
const BEFORE_FOLD_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Write {
  tid: string;
  file: string;
  head: Buffer;
  bytes: number;
  offset: number;
}

/** The kernel's page: a write into a database file dirties (and counts) the whole of each one it touches. */
const OS_PAGE = 4096;

const unhex = (text: string) => Buffer.from(text.replaceAll('\\x', ''), 'hex');

/** pwrite64 calls of an `strace -f -y -s 32 -xx` log, an interrupted call joined to its end. */
export function parseTrace(text: string): Write[] {
  const pending = new Map<string, string>();
  const out: Write[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, tid, body] = match as unknown as [string, string, string];
    if (body.endsWith('<unfinished ...>')) {
      pending.set(tid, body.slice(0, -'<unfinished ...>'.length).trimEnd());
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(body);
    const call = resumed ? (pending.get(tid) ?? '') + resumed[1] : body;
    pending.delete(tid);
    const parts =
      /^pwrite64\(\d+<([^>]*)>, "((?:\\x[0-9a-f]{2})*)"[^,]*, \d+, (\d+)\) = (\d+)/.exec(call) ??
      /^write\(\d+<([^>]*)>, "((?:\\x[0-9a-f]{2})*)"[^,]*, \d+\)() = (\d+)/.exec(call);
    if (!parts) continue;
    const [, path, head, offset, bytes] = parts as unknown as string[];
    const file = path!.startsWith('\\x') ? unhex(path!).toString('utf8') : path!;
    const at = offset === '' ? -1 : Number(offset);
    out.push({ tid, file, head: unhex(head!), bytes: Number(bytes), offset: at });
  }
  return out;
}

/** Page number to table or index name, and the page size, of a copied database file. */
function pageOwners(file: string): { size: number; owner: Map<number, string> } {
  const db = new Database(file);
  try {
    const size = db.pragma('page_size', { simple: true }) as number;
    const owner = new Map<number, string>();
    for (const row of db.prepare('SELECT name, pageno FROM dbstat').raw().iterate()) {
      const [name, page] = row as [string, number];
      owner.set(page, name);
    }
    return { size, owner };
  } finally {
    db.close();
  }
}

interface Tally {
  bytes: number;
  frames: number;
  pages: Set<number>;
}

/** Bytes, frames and distinct pages per `file table` key; commits per WAL. */
export function tally(
  writes: readonly Write[],
  ownersOf: (db: string) => ReturnType<typeof pageOwners>,
) {
  const rows = new Map<string, Tally>();
  const commits = new Map<string, number>();
  const osPages = new Map<string, Set<number>>();
  const framePage = new Map<string, number>();
  const add = (key: string, bytes: number, page?: number) => {
    const row = rows.get(key) ?? { bytes: 0, frames: 0, pages: new Set<number>() };
    rows.set(key, row);
    row.bytes += bytes;
    if (page !== undefined) row.pages.add(page);
    return row;
  };
  for (const write of writes) {
    const name = basename(write.file);
    const wal = name.endsWith('-wal');
    if (!wal && !name.endsWith('.db')) {
      add(name.replace(/\d+/g, '#'), write.bytes);
      continue;
    }
    const { size, owner } = ownersOf(wal ? name.slice(0, -4) : name);
    if (!wal) {
      const touched = osPages.get(name) ?? new Set<number>();
      osPages.set(name, touched);
      for (let at = write.offset; at < write.offset + write.bytes; at += OS_PAGE)
        touched.add(Math.floor(at / OS_PAGE));
      const page = Math.floor(write.offset / size) + 1;
      add(`${name} checkpoint ${owner.get(page) ?? 'free'}`, write.bytes, page);
    } else if (write.bytes === 24) {
      const page = write.head.readUInt32BE(0);
      framePage.set(write.file, page);
      add(`${name} ${owner.get(page) ?? 'free'}`, write.bytes, page).frames++;
      if (write.head.readUInt32BE(4) !== 0) commits.set(name, (commits.get(name) ?? 0) + 1);
    } else {
      const page = write.bytes === size ? framePage.get(write.file) : undefined;
      framePage.delete(write.file);
      add(`${name} ${page === undefined ? 'header' : (owner.get(page) ?? 'free')}`, write.bytes);
    }
  }
  return { rows, commits, osPages };
}

function startWindow(): Promise<void> {
  const fits = () => {
    const into = (Date.now() - FOLD_POLICY.graceMs + PERIOD_MS) % PERIOD_MS;
    if (WHOLE_PERIOD) return into >= PERIOD_MS - 60_000 && into < PERIOD_MS - 50_000;
    return into >= AFTER_FOLD_MS && into + WINDOW_S * 1000 <= PERIOD_MS - BEFORE_FOLD_MS;
  };
  if (!WHOLE_PERIOD && WINDOW_S * 1000 > PERIOD_MS - AFTER_FOLD_MS - BEFORE_FOLD_MS) {
    throw new Error(`DISK_PROFILE_WINDOW_S ${WINDOW_S} does not fit between two folds`);
  }
  return (async () => {
    while (!fits()) await sleep(1000);
  })();
}

export async function benchDiskProfile(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'disk-profile-'));
  const work = mkdtempSync(join(tmpdir(), 'disk-profile-copy-'));
  const server = await startSteadyServer(dataDir);
  try {
    await sleep(SETTLE_S * 1000);
    await startWindow();
    const pid = server.child.pid!;
    const log = join(work, 'trace.txt');
    const calls = WHOLE_PERIOD ? 'trace=pwrite64,write' : 'trace=pwrite64';
    const trace = ['-f', '-y', '-e', calls, '-s', '32', '-xx', '-o', log];
    const strace = spawn('strace', [...trace, '-p', String(pid)], { stdio: 'ignore' });
    await sleep(3000);
    const [before, from] = [writtenBytes(pid), new Date()];
    await sleep(WINDOW_S * 1000);
    const written = writtenBytes(pid) - before;
    strace.kill('SIGINT');
    await new Promise((resolve) => strace.once('exit', resolve));
    process.kill(pid, 'SIGSTOP');
    cpSync(dataDir, join(work, 'data'), { recursive: true });
    process.kill(pid, 'SIGCONT');
    report(parseTrace(readFileSync(log, 'utf8')), join(work, 'data'), written, from);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

export function report(writes: Write[], copy: string, written: number, from: Date): void {
  const owners = new Map<string, ReturnType<typeof pageOwners>>();
  const ownersOf = (name: string) => {
    let held = owners.get(name);
    const file = join(copy, name);
    if (held === undefined) {
      held = existsSync(file) ? pageOwners(file) : { size: 4096, owner: new Map() };
      owners.set(name, held);
    }
    return held;
  };
  const { rows, commits, osPages } = tally(writes, ownersOf);
  const traced = [...rows.values()].reduce((sum, row) => sum + row.bytes, 0);
  const perDay = (bytes: number) => ((bytes / WINDOW_S) * 86_400) / 1e9;
  console.log(
    `real server, ${WINDOW_S} s ${WHOLE_PERIOD ? 'with a fold' : 'between folds'} from ${from.toISOString()}: write_bytes ${(written / 1e6).toFixed(2)} MB ` +
      `(${perDay(written).toFixed(2)} GB a day), traced pwrite64 ${(traced / 1e6).toFixed(2)} MB; ` +
      `commits ${[...commits].map(([file, n]) => `${file} ${n}`).join(', ')}`,
  );
  for (const [name, touched] of osPages)
    console.log(
      `${name} in place: ${touched.size} distinct ${OS_PAGE / 1024} KiB pages of the file touched (${((touched.size * OS_PAGE) / 1e6).toFixed(2)} MB as the kernel counts them)`,
    );
  console.log('| file, table or index | MB | frames | distinct pages | GB a day |');
  console.log('|---|---|---|---|---|');
  for (const [name, row] of [...rows].sort((a, b) => b[1].bytes - a[1].bytes)) {
    console.log(
      `| ${name} | ${(row.bytes / 1e6).toFixed(2)} | ${row.frames} | ${row.pages.size} | ${perDay(row.bytes).toFixed(3)} |`,
    );
  }
}
