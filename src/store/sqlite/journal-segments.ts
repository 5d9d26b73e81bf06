/**
 * The rollup journal's segment files, `prices.journal/<period>-<store id>`, each appended by its
 * store only: records of a length and a CRC-32 (u32 LE each) then a blob; a read stops at the first
 * record that does not check (docs/history-storage.md, "The journal's segment files").
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type Database from 'better-sqlite3';
import { HISTORY_SCHEMA } from './history-file.ts';

export const journalDirOf = (pricesPath: string) => pricesPath.replace(/(\.db)?$/, '.journal');

export function frame(blob: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32LE(crc32(blob), head.writeUInt32LE(blob.length));
  return Buffer.concat([head, blob]);
}

/** Hands `visit` each whole record of `data` in order, with where it ends; returns their bytes. */
export function eachRecord(data: Buffer, visit: (blob: Buffer, end: number) => void): number {
  let at = 0;
  for (let end = 0; at + 8 <= data.length; at = end) {
    end = at + 8 + data.readUInt32LE(at);
    const blob = data.subarray(at + 8, end);
    if (end > data.length || crc32(blob) !== data.readUInt32LE(at + 4)) break;
    visit(blob, end);
  }
  return at;
}

/** The folders of ':memory:' stores, removed on close or at exit. */
const temporary = new Set<string>();
const removeAll = { recursive: true, force: true };
process.once('exit', () => temporary.forEach((dir) => fs.rmSync(dir, removeAll)));

export class JournalSegments {
  readonly dir: string;
  private id = randomBytes(6).toString('hex');
  private open: { name: string; fd: number } | null = null;

  constructor(pricesPath: string) {
    const memory = () => fs.mkdtempSync(path.join(os.tmpdir(), 'journal-'));
    this.dir = pricesPath === ':memory:' ? memory() : journalDirOf(pricesPath);
    fs.mkdirSync(this.dir, { recursive: true });
    if (pricesPath === ':memory:') temporary.add(this.dir);
  }

  /** Appends the blob `make` makes, told whether it opens its segment (a new file). */
  append(period: number, make: (opens: boolean) => Buffer): void {
    const name = `${period}-${this.id}`;
    const opens = this.open?.name !== name;
    const record = frame(make(opens));
    try {
      if (opens) {
        this.close(false);
        this.open = { name, fd: fs.openSync(path.join(this.dir, name), 'a') };
      }
      fs.writeSync(this.open!.fd, record);
    } catch (error) {
      this.rotate();
      throw error;
    }
  }

  /** Appends go to segments of a new id from now on. */
  rotate(): void {
    this.close(false);
    this.id = randomBytes(6).toString('hex');
  }

  /** Oldest period first. */
  list() {
    const segments = fs.readdirSync(this.dir).map((name) => ({ name, period: parseInt(name) }));
    return segments.sort((a, b) => a.period - b.period || (a.name < b.name ? -1 : 1));
  }

  read(name: string): Buffer {
    return fs.readFileSync(path.join(this.dir, name));
  }

  /** Unlinks segments, then syncs the folder, so that they stay gone. */
  remove(names: string[]): void {
    if (names.length === 0) return;
    if (names.includes(this.open?.name ?? '')) this.close(false);
    for (const name of names) fs.rmSync(path.join(this.dir, name), { force: true });
    const folder = fs.openSync(this.dir, 'r');
    fs.fsyncSync(folder);
    fs.closeSync(folder);
  }

  close(all = true): void {
    if (this.open) fs.closeSync(this.open.fd);
    this.open = null;
    if (all && temporary.delete(this.dir)) fs.rmSync(this.dir, removeAll);
  }
}

/** Moves what earlier releases left in `rollup_journal` past their fold mark into the segment
 * `0-table` (folded first), synced, then empties the table, in one IMMEDIATE transaction. */
export function moveTableJournal(db: Database.Database, segments: JournalSegments): void {
  const select = db.prepare<[], Buffer>(`SELECT entries FROM rollup_journal WHERE id >
    (SELECT journal_id FROM ${HISTORY_SCHEMA}.fold_mark) ORDER BY id`);
  db.transaction(() => {
    const blobs = select.pluck().all();
    if (blobs.length === 0) return;
    const file = path.join(segments.dir, '0-table');
    fs.writeFileSync(file, Buffer.concat(blobs.map(frame)), { flush: true });
    db.exec('DELETE FROM rollup_journal');
  }).immediate();
}
