/**
 * `serve --record DIR`: appends each recorded poll as one line to the current segment, preceded
 * by the exchange rates in force whenever they changed since the last line (the poll's
 * observations are converted with them); a segment is closed at an eighth of the size bound and the
 * oldest segments are deleted while the directory holds more than the bound, so a recording
 * keeps the most recent traffic within `--record-max-mb`. Writes are synchronous appends (a
 * crash loses at most the line being written).
 */
import { appendFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FxTable } from '../../domain/fx.ts';
import type { PollRecorder, RecordedPoll, RecordingLine } from '../../markets/live/recording.ts';
import { listSegments, segmentName } from './recording-files.ts';

export interface RecordingWriter extends PollRecorder {
  /** Where the rates in force are read: before each poll line, a change of them is written. */
  ratesFrom(current: () => FxTable): void;
}

const SEGMENTS_PER_BOUND = 8;

export function createRecordingWriter(dir: string, maxBytes: number): RecordingWriter {
  mkdirSync(dir, { recursive: true });
  const segments = listSegments(dir).map((segment) => ({
    ...segment,
    bytes: statSync(segment.path).size,
  }));
  let current = { index: (segments.at(-1)?.index ?? 0) + 1, bytes: 0 };
  const segmentBytes = Math.max(1, Math.floor(maxBytes / SEGMENTS_PER_BOUND));
  let lastFx: string | null = null;
  let rates: (() => FxTable) | null = null;

  const pathOf = (index: number) => join(dir, segmentName(index));
  const total = () => segments.reduce((sum, s) => sum + s.bytes, 0) + current.bytes;

  function write(line: RecordingLine): void {
    const text = `${JSON.stringify(line)}\n`;
    const bytes = Buffer.byteLength(text);
    if (current.bytes > 0 && current.bytes + bytes > segmentBytes) {
      segments.push({ index: current.index, path: pathOf(current.index), bytes: current.bytes });
      current = { index: current.index + 1, bytes: 0 };
    }
    appendFileSync(pathOf(current.index), text);
    current.bytes += bytes;
    while (segments.length > 0 && total() > maxBytes) {
      rmSync(segments.shift()!.path, { force: true });
    }
  }

  function writeRates(at: number): void {
    const table = rates?.();
    if (!table) return;
    const key = `${table.source}@${table.asOf}`;
    if (key === lastFx) return;
    lastFx = key;
    write({ type: 'fx', at, table: { ...table, usdMicroPerUnit: { ...table.usdMicroPerUnit } } });
  }

  return {
    poll(line: RecordedPoll) {
      writeRates(line.endedAt);
      write(line);
    },
    ratesFrom: (current) => void (rates = current),
  };
}
