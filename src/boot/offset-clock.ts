/**
 * A test hook for multi-process tests, which cannot wait 30 minutes for quotes to go stale:
 * with PRICING_CLOCK_OFFSET_FILE=<path> a process's clock is the system time plus the integer
 * milliseconds written in that file. The file is re-read at most every 200 ms; a missing,
 * empty or invalid file means an offset of 0. Never set it in production.
 */
import { readFileSync } from 'node:fs';
import { systemClock, type Clock } from '../domain/clock.ts';

export const CLOCK_OFFSET_ENV = 'PRICING_CLOCK_OFFSET_FILE';
export const OFFSET_REREAD_MS = 200;

function readOffset(path: string): number {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch {
    return 0;
  }
  if (!/^-?\d+$/.test(text)) return 0;
  const offset = Number(text);
  return Number.isSafeInteger(offset) ? offset : 0;
}

export function offsetFileClock(path: string, base: Clock = systemClock): Clock {
  let offset = 0;
  let readAt = -Infinity;
  return {
    now() {
      const now = base.now();
      if (now - readAt >= OFFSET_REREAD_MS || now < readAt) {
        offset = readOffset(path);
        readAt = now;
      }
      return now + offset;
    },
  };
}

/** The offset clock when the environment names a file, else the system clock. */
export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock {
  const path = env[CLOCK_OFFSET_ENV];
  return path ? offsetFileClock(path) : systemClock;
}
