/**
 * A throwaway PostgreSQL cluster for benches that count what PostgreSQL writes: initdb in a
 * temporary directory, started on a free loopback port with trust auth and the server's
 * defaults for everything that shapes write volume (fsync, full_page_writes,
 * synchronous_commit, checkpoint_timeout 5 min, max_wal_size 1 GB). Nothing else writes to
 * it, so its WAL and buffer-write counters are the bench's alone (a shared server's are not).
 *
 * Two settings differ, for the profile only: pg_stat_statements is preloaded (WAL bytes per
 * statement), and WAL is kept (`wal_keep_size`) so pg_waldump can read the whole window; with
 * `wal_init_zero = off` a kept segment costs no more writes than a recycled one would.
 * Binaries come from PG_BINDIR, else `pg_config --bindir`, else the Debian layout. As root,
 * the server runs as the `postgres` user (PostgreSQL refuses to run as root). PG_SCRATCH_SETTINGS
 * adds settings to compare, e.g. `checkpoint_timeout=30min,wal_compression=lz4`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ScratchCluster {
  url: string;
  dataDir: string;
  bin: (name: string) => string;
  /** The postmaster's pid (its children are the server's other processes). */
  pid: () => number;
  stop(): void;
}

function binDir(): string | null {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (fromConfig.status === 0 && existsSync(join(fromConfig.stdout.trim(), 'initdb'))) {
    return fromConfig.stdout.trim();
  }
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return null;
  const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
  const found = versions
    .map((v) => join(debian, v, 'bin'))
    .find((d) => existsSync(join(d, 'initdb')));
  return found ?? null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Runs a server binary, as `postgres` when this process is root. */
function asServerUser(command: string, args: string[]): string {
  const root = process.getuid?.() === 0;
  const [file, argv] = root
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
  return execFileSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

const SETTINGS = [
  "listen_addresses='127.0.0.1'",
  "shared_preload_libraries='pg_stat_statements'",
  'pg_stat_statements.track=all',
  "wal_keep_size='16GB'",
  'wal_init_zero=off',
];

/** Server settings to try on top (PG_SCRATCH_SETTINGS, comma-separated name=value). */
export function extraSettings(): string[] {
  return (process.env.PG_SCRATCH_SETTINGS ?? '').split(',').filter((s) => s.includes('='));
}

/** Starts a scratch cluster, or returns why it cannot (no server binaries found). */
export async function startScratchCluster(): Promise<ScratchCluster | string> {
  const dir = binDir();
  if (dir === null) return 'no PostgreSQL server binaries (set PG_BINDIR)';
  const bin = (name: string) => join(dir, name);
  const dataDir = mkdtempSync(join(tmpdir(), 'pg-scratch-'));
  if (process.getuid?.() === 0) {
    const ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dataDir, Number(ids), Number(gid));
  }
  chmodSync(dataDir, 0o700);
  asServerUser(bin('initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const port = await freePort();
  const settings = [...SETTINGS, ...extraSettings()];
  const options = [`-p ${port}`, `-k ${dataDir}`, ...settings.map((s) => `-c ${s}`)].join(' ');
  asServerUser(bin('pg_ctl'), [
    '-D',
    dataDir,
    '-o',
    options,
    '-w',
    '-l',
    join(dataDir, 'log'),
    'start',
  ]);
  const pid = () => Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir,
    bin,
    pid,
    stop() {
      asServerUser(bin('pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
