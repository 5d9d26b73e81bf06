/**
 * A recording on disk: numbered NDJSON segments `recording-000001.ndjson`, … in one directory,
 * written in order (a restart continues after the highest number) and read back in order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordingLine } from '../../markets/live/recording.ts';

const SEGMENT = /^recording-(\d{6,})\.ndjson$/;

export function segmentName(index: number): string {
  return `recording-${String(index).padStart(6, '0')}.ndjson`;
}

/** The directory's segments, oldest first, with their numbers. */
export function listSegments(dir: string): { index: number; path: string }[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const match = SEGMENT.exec(name);
      return match ? [{ index: Number(match[1]), path: join(dir, name) }] : [];
    })
    .sort((a, b) => a.index - b.index);
}

export class RecordingError extends Error {}

/** Every line of every segment, in the order written; a torn last line (a crash) is skipped. */
export function* readRecording(dir: string): Generator<RecordingLine> {
  const segments = listSegments(dir);
  if (segments.length === 0) throw new RecordingError(`${dir}: no recording-*.ndjson segments`);
  for (const [number, segment] of segments.entries()) {
    const lines = readFileSync(segment.path, 'utf8').split('\n');
    for (const [index, text] of lines.entries()) {
      if (text.trim() === '') continue;
      try {
        yield JSON.parse(text) as RecordingLine;
      } catch (error) {
        const last = number === segments.length - 1 && index >= lines.length - 2;
        if (!last)
          throw new RecordingError(`${segment.path}:${index + 1}: ${(error as Error).message}`);
      }
    }
  }
}
