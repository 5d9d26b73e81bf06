import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedPoll } from '../../markets/live/recording.ts';
import { listSegments, readRecording } from './recording-files.ts';
import { createRecordingWriter } from './recording-writer.ts';

function poll(n: number): RecordedPoll {
  return {
    type: 'poll',
    market: 'skinport',
    game: 'cs2',
    startedAt: n,
    endedAt: n + 1,
    exchanges: [
      {
        line: `GET https://api.skinport.com/v1/items?n=${n}`,
        request: { kind: 'items', game: 'cs2', method: 'GET', path: '/v1/items' },
        answer: { at: n + 1, status: 200, headers: {}, body: 'x'.repeat(900) },
        failure: null,
      },
    ],
    failure: null,
  };
}

test('segments rotate at an eighth of the bound and the oldest go beyond it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recording-'));
  const bound = 8 * 4096;
  const writer = createRecordingWriter(dir, bound);
  for (let n = 0; n < 200; n += 1) writer.poll(poll(n));
  const segments = listSegments(dir);
  const total = segments.reduce((sum, segment) => sum + statSync(segment.path).size, 0);
  assert.ok(total <= bound, `${total} bytes kept, bound ${bound}`);
  assert.ok(segments.length >= 7 && segments[0]!.index > 1, 'rotated, oldest deleted');
  const kept = [...readRecording(dir)].map((line) => (line as RecordedPoll).startedAt);
  assert.equal(kept.at(-1), 199, 'the newest poll is kept');
  assert.deepEqual(
    kept,
    [...kept].sort((a, b) => a - b),
    'read back in the order written',
  );

  const again = createRecordingWriter(dir, bound);
  again.poll(poll(200));
  assert.equal(listSegments(dir).at(-1)!.index, segments.at(-1)!.index + 1, 'a restart continues');
});

test('the rates in force are written before a poll whenever they changed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recording-'));
  const writer = createRecordingWriter(dir, 1 << 20);
  let table = { asOf: 1, source: 'ECB 1', usdMicroPerUnit: { USD: 1_000_000, EUR: 1_080_000 } };
  writer.ratesFrom(() => table);
  writer.poll(poll(1));
  writer.poll(poll(2));
  table = { ...table, asOf: 2, source: 'ECB 2' };
  writer.poll(poll(3));
  const types = [...readRecording(dir)].map((line) => line.type);
  assert.deepEqual(types, ['fx', 'poll', 'poll', 'fx', 'poll']);
});
