/**
 * The versioned item log of one game, pure and in memory: every stored change (an item added,
 * changed or removed) as an entry `(version, id)`. Rules:
 * - One sync assigns all its changes one version: `max(now, head + 1)`, so versions are
 *   millisecond epochs that never move backwards, even when the clock does.
 * - An item's version moves only when its content hash changes.
 * - A learned record never replaces a live package record; a package record replaces a learned one.
 * - Pages read "the newest entry of each item at or below `upper`", in (version, id) order after
 *   a keyset position: a sync bounded by `upper` therefore yields every item changed in
 *   (since, upper] exactly once, however the catalog changes between its pages.
 */
import type { SchemaRecord, VersionedRecord } from './records.ts';

export type RecordSource = 'catalog' | 'learned';

export interface LogEntry {
  version: number;
  id: string;
  hash: string;
  source: RecordSource;
  removed: boolean;
  record: SchemaRecord;
}

export interface DesiredRecord {
  record: SchemaRecord;
  hash: string;
  source: RecordSource;
}

export interface Position {
  version: number;
  id: string;
}

export interface PageRequest {
  since: number;
  upper: number;
  after: Position | null;
  limit: number;
}

export interface Page {
  entries: LogEntry[];
  hasMore: boolean;
}

/**
 * The entries a sync appends. `removeMissing`: package items the desired list no longer holds
 * become removals (learned items are never removed this way).
 */
export function planChanges(
  latest: ReadonlyMap<string, LogEntry>,
  desired: readonly DesiredRecord[],
  removeMissing: boolean,
  version: number,
): LogEntry[] {
  const changes: LogEntry[] = [];
  const wanted = new Set<string>();
  for (const { record, hash, source } of desired) {
    wanted.add(record.id);
    const current = latest.get(record.id);
    if (current && !current.removed) {
      if (current.hash === hash) continue;
      if (source === 'learned' && current.source === 'catalog') continue;
    }
    changes.push({ version, id: record.id, hash, source, removed: false, record });
  }
  if (!removeMissing) return changes;
  for (const entry of latest.values()) {
    if (entry.removed || entry.source !== 'catalog' || wanted.has(entry.id)) continue;
    changes.push({ ...entry, version, removed: true });
  }
  return changes;
}

/** The version a sync at `now` gives its changes. */
export function nextVersion(head: number, now: number): number {
  return Math.max(now, head + 1);
}

export function comparePositions(a: Position, b: Position): number {
  if (a.version !== b.version) return a.version - b.version;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function servedRecord(entry: LogEntry): VersionedRecord {
  return entry.removed
    ? { ...entry.record, version: entry.version, removed: true }
    : { ...entry.record, version: entry.version };
}

export class ChangeLog {
  private readonly entries: LogEntry[] = [];
  private readonly newest = new Map<string, LogEntry>();
  /** Versions of each item's entries, ascending. */
  private readonly versionsOf = new Map<string, number[]>();

  head(): number {
    return this.entries.at(-1)?.version ?? 0;
  }

  latest(): ReadonlyMap<string, LogEntry> {
    return this.newest;
  }

  get(id: string): LogEntry | undefined {
    return this.newest.get(id);
  }

  /** Adds entries newer than every held one (a sync's or a reload's), in any order. */
  append(added: readonly LogEntry[]): void {
    for (const entry of [...added].sort(comparePositions)) {
      const last = this.entries.at(-1);
      if (last && comparePositions(entry, last) <= 0) continue;
      this.entries.push(entry);
      this.newest.set(entry.id, entry);
      const versions = this.versionsOf.get(entry.id);
      if (versions) versions.push(entry.version);
      else this.versionsOf.set(entry.id, [entry.version]);
    }
  }

  page(request: PageRequest): Page {
    const start = this.firstAfter(request.after ?? { version: request.since, id: '\uffff' });
    const entries: LogEntry[] = [];
    for (let index = start; index < this.entries.length; index += 1) {
      const entry = this.entries[index] as LogEntry;
      if (entry.version > request.upper) break;
      if (entry.version <= request.since || !this.isNewestAtOrBelow(entry, request.upper)) continue;
      if (entries.length === request.limit) return { entries, hasMore: true };
      entries.push(entry);
    }
    return { entries, hasMore: false };
  }

  private isNewestAtOrBelow(entry: LogEntry, upper: number): boolean {
    const versions = this.versionsOf.get(entry.id) ?? [];
    const next = versions[versions.indexOf(entry.version) + 1];
    return next === undefined || next > upper;
  }

  /** Index of the first entry strictly after `position` (binary search). */
  private firstAfter(position: Position): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comparePositions(this.entries[middle] as LogEntry, position) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
