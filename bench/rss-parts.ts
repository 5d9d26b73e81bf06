/**
 * A server's resident memory by component: the kinds of mapping in /proc/<pid>/smaps (see
 * proc(5)) split further with the heaps its threads report (bench/thread-heaps.mjs).
 *  - file-backed mappings: the node binary, shared libraries and the SQLite shared-memory files;
 *  - `[heap]`: the main thread's malloc arena, which holds its array buffers (the book's packed
 *    columns, prepared payloads), the page caches of the SQLite connections it opened, and
 *    its other native allocations;
 *  - every other anonymous mapping: the V8 heaps of all threads, the other threads' malloc
 *    arenas (the ingest thread's SQLite page caches, zlib on the thread pool) and stacks.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface SmapsKinds {
  fileBacked: number;
  mainArena: number;
  otherAnonymous: number;
}

export interface HeapLine {
  thread: string;
  at: number;
  heapMb: number;
  usedMb: number;
  peakMb: number;
  arrayBuffersMb: number;
}

/** Resident bytes of `pid` by kind of mapping (0 each when the process is gone). */
export function smapsKinds(pid: number): SmapsKinds {
  const kinds: SmapsKinds = { fileBacked: 0, mainArena: 0, otherAnonymous: 0 };
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return kinds;
  }
  let kind: keyof SmapsKinds = 'otherAnonymous';
  for (const line of text.split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const name = mapping[1]!;
      kind = name.startsWith('/')
        ? 'fileBacked'
        : name === '[heap]'
          ? 'mainArena'
          : 'otherAnonymous';
    } else if (line.startsWith('Rss:')) {
      kinds[kind] += Number(/(\d+)/.exec(line)![1]) * 1024;
    }
  }
  return kinds;
}

/**
 * A thread that wrote no sample this long before `at` had ended (the catalog build thread ends
 * within seconds of the start; a busy or low-priority thread may skip a few 5 s samples).
 */
const SAMPLE_GAP_MS = 60_000;

/** Each live thread's last heap sample at or before `at` (ms since the epoch). */
export function threadHeapsAt(heapsFile: string, at: number): HeapLine[] {
  const last = new Map<string, HeapLine>();
  const lines = existsSync(heapsFile) ? readFileSync(heapsFile, 'utf8') : '';
  for (const text of lines.split('\n')) {
    if (text === '') continue;
    const line = JSON.parse(text) as HeapLine;
    if (line.at <= at) last.set(line.thread, line);
  }
  return [...last.values()].filter((line) => at - line.at <= SAMPLE_GAP_MS);
}

const MB = 1024 * 1024;

/**
 * One line of components that add up to the RSS: each thread's V8 heap, the main thread's array
 * buffers and the rest of its malloc arena, the other threads' native memory and stacks, and
 * code. Array buffers of worker threads are small and left in their native share.
 */
export function componentsLine(kinds: SmapsKinds, heaps: readonly HeapLine[]): string {
  const main = heaps.find((line) => line.thread === 'main');
  const heapMb = heaps.reduce((sum, line) => sum + line.heapMb, 0);
  const mainBuffersMb = main?.arrayBuffersMb ?? 0;
  const mainNativeMb = Math.max(0, kinds.mainArena / MB - mainBuffersMb);
  const otherNativeMb = Math.max(0, kinds.otherAnonymous / MB - heapMb);
  const parts = [
    ...heaps.map((line) => `${line.thread} V8 heap ${line.heapMb} (${line.usedMb} used)`),
    `main array buffers ${mainBuffersMb}`,
    `main native (SQLite caches of its connections, malloc) ${Math.round(mainNativeMb)}`,
    `other threads' native (ingest SQLite caches, zlib, stacks) ${Math.round(otherNativeMb)}`,
    `code and mapped files ${Math.round(kinds.fileBacked / MB)}`,
  ];
  return `${parts.join('; ')} (MB)`;
}
