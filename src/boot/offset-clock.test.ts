import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock, MINUTE, systemClock } from '../domain/clock.ts';
import {
  CLOCK_OFFSET_ENV,
  clockFromEnv,
  offsetFileClock,
  OFFSET_REREAD_MS,
} from './offset-clock.ts';

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'pricing-clock-')), 'offset');
}

describe('offsetFileClock', () => {
  test('adds the file offset to the base clock', () => {
    const path = tempFile();
    writeFileSync(path, `${31 * MINUTE}\n`);
    const base = manualClock('2026-11-20T10:00:00Z');
    assert.equal(offsetFileClock(path, base).now(), base.now() + 31 * MINUTE);
    rmSync(path);
  });

  test('a missing or invalid file means no offset', () => {
    const base = manualClock('2026-11-20T10:00:00Z');
    const path = tempFile();
    assert.equal(offsetFileClock(path, base).now(), base.now());
    for (const text of ['', 'abc', '1.5', '12ms', '99999999999999999999']) {
      writeFileSync(path, text);
      assert.equal(offsetFileClock(path, base).now(), base.now(), JSON.stringify(text));
    }
    writeFileSync(path, '-5000');
    assert.equal(offsetFileClock(path, base).now(), base.now() - 5000);
  });

  test('re-reads the file at most every 200 ms of base time', () => {
    const path = tempFile();
    writeFileSync(path, '1000');
    const base = manualClock('2026-11-20T10:00:00Z');
    const clock = offsetFileClock(path, base);
    assert.equal(clock.now() - base.now(), 1000);
    writeFileSync(path, '7000');
    base.advance(OFFSET_REREAD_MS - 1);
    assert.equal(clock.now() - base.now(), 1000);
    base.advance(1);
    assert.equal(clock.now() - base.now(), 7000);
  });

  test('clockFromEnv uses the system clock unless the variable is set', () => {
    assert.equal(clockFromEnv({}), systemClock);
    const path = tempFile();
    writeFileSync(path, String(MINUTE));
    const clock = clockFromEnv({ [CLOCK_OFFSET_ENV]: path });
    assert.notEqual(clock, systemClock);
  });
});
