import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readWhenUnlocked } from './busy-retry.ts';

function rollbackFilePair() {
  const dir = mkdtempSync(join(tmpdir(), 'busy-retry-'));
  const file = join(dir, 'history.db');
  const writer = new Database(file);
  writer.pragma('journal_mode = TRUNCATE');
  writer.exec('CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)');
  const reader = new Database(file);
  reader.pragma('busy_timeout = 5000');
  const count = () => reader.prepare('SELECT count(*) FROM t').pluck().get() as number;
  const close = () => {
    writer.close();
    reader.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { writer, reader, count, close };
}

describe('readWhenUnlocked', () => {
  test('a read held off by a commit waits on a timer, not on the thread, and reads the commit', async () => {
    const { writer, reader, count, close } = rollbackFilePair();
    try {
      writer.exec('BEGIN EXCLUSIVE; INSERT INTO t VALUES (2)');
      // Each attempt notes the busy timeout it runs under: 0, so SQLite answers BUSY at once
      // instead of sleeping on the thread until the lock is free.
      const busyTimeouts: number[] = [];
      let settled = false;
      const read = readWhenUnlocked(reader, () => {
        busyTimeouts.push(reader.pragma('busy_timeout', { simple: true }) as number);
        return count();
      }).finally(() => (settled = true));
      // The commit comes from a timer of this thread once ten others have run while the read
      // waited: a read that held the thread would let none run (and, under the busy timeout,
      // fail as busy after 5 s, the lock still held). Counted, not timed, so a slow machine
      // cannot fail it.
      const pendingAfterTicks = await new Promise<boolean>((resolve) => {
        let ticks = 0;
        const ticker = setInterval(() => {
          ticks += 1;
          if (ticks < 10) return;
          clearInterval(ticker);
          resolve(!settled);
        }, 5);
      });
      assert.equal(pendingAfterTicks, true, 'the read was still waiting after ten timers ran');
      writer.exec('COMMIT');
      assert.equal(await read, 2);
      assert.ok(busyTimeouts.length > 1, `${busyTimeouts.length} attempts`);
      assert.ok(
        busyTimeouts.every((ms) => ms === 0),
        `busy timeouts ${busyTimeouts}`,
      );
      assert.equal(reader.pragma('busy_timeout', { simple: true }), 5000);
    } finally {
      close();
    }
  });

  test('a read that fails for another reason fails at once', async () => {
    const { reader, close } = rollbackFilePair();
    try {
      let attempts = 0;
      await assert.rejects(
        readWhenUnlocked(reader, () => {
          attempts += 1;
          return reader.prepare('SELECT * FROM missing').all();
        }),
        /no such table/,
      );
      assert.equal(attempts, 1, 'not tried again');
      assert.equal(reader.pragma('busy_timeout', { simple: true }), 5000);
    } finally {
      close();
    }
  });
});
