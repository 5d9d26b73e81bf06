/**
 * What the SQLite writer knows of every stored side without reading it back: per (game, market)
 * chunk and key, the side's fetchedAt, its sourceUpdatedAt and a 64-bit hash of its content
 * (levels, listing count, total quantity, time kind, currency), in typed arrays (24 bytes a
 * side, plus 4 per item code the chunk has seen). Enough to apply the rules of live-writes.ts:
 * an older side never replaces a stored one; a newer one only when its content differs; one of
 * the same fetch time when its content or sourceUpdatedAt differs. Item codes (side_items) are
 * held here too: the entries name items by code.
 */
import type { Game } from '../../domain/games.ts';
import type { SideEntry } from './side-codec.ts';
import type { SideStatements } from './side-tables.ts';

/** Steps that take back what a transaction that rolled back did to memory. */
export type Undo = Array<() => void>;

let hashLow = 0;
let hashHigh = 0;

function mix(value: number): void {
  hashLow = Math.imul(hashLow ^ value, 0x01000193);
  hashHigh = Math.imul(hashHigh ^ value, 0x5bd1e995);
  hashHigh ^= hashHigh >>> 13;
}

function mixNumber(value: number | null): void {
  if (value === null) return mix(0x7fffffff);
  mix(value | 0);
  mix(Math.floor(value / 0x100000000) | 0);
}

function mixText(text: string | null): void {
  if (text === null) return mix(0x7ffffffe);
  mix(text.length);
  for (let index = 0; index < text.length; index++) mix(text.charCodeAt(index));
}

/** Sets hashLow/hashHigh to two independent 32-bit hashes of the entry's content. */
function hashContent(entry: SideEntry): void {
  hashLow = 0x811c9dc5;
  hashHigh = 0x9747b28c;
  mixNumber(entry.listingCount);
  mixNumber(entry.totalQuantity);
  mixText(entry.sourceTimeKind);
  mixText(entry.originalCurrency);
  const levels = entry.levels;
  mix(levels.length);
  for (let index = 0; index < levels.length; index++) mix(levels[index]!);
}

function grown<T extends Float64Array | Int32Array>(
  array: T,
  size: number,
  make: (n: number) => T,
): T {
  if (size <= array.length) return array;
  const next = make(Math.max(size, array.length * 2, 64));
  next.set(array);
  return next;
}

/** The fingerprints of one chunk's sides. */
export class ChunkPrints {
  private slotOf = new Int32Array(0);
  private fetchedAt = new Float64Array(0);
  private sourceUpdatedAt = new Float64Array(0);
  private hashes = new Int32Array(0);
  private slots = 0;

  /** Records a stored entry (snapshot, then log in order: a later one wins unless older). */
  load(entry: SideEntry): void {
    const slot = this.slotFor(entry.key);
    if (entry.fetchedAt >= this.fetchedAt[slot]! || Number.isNaN(this.fetchedAt[slot])) {
      hashContent(entry);
      this.set(slot, entry.fetchedAt, entry.sourceUpdatedAt ?? Number.NaN, hashLow, hashHigh);
    }
  }

  /** Whether `entry` changes the stored side of its key; if it does, records it (undoably). */
  admit(entry: SideEntry, undo: Undo): boolean {
    const slot = this.slotFor(entry.key);
    const storedAt = this.fetchedAt[slot]!;
    if (entry.fetchedAt < storedAt) return false;
    hashContent(entry);
    const updated = entry.sourceUpdatedAt ?? Number.NaN;
    const sameContent = this.hashes[slot * 2] === hashLow && this.hashes[slot * 2 + 1] === hashHigh;
    const absent = Number.isNaN(storedAt);
    const changed =
      absent ||
      !sameContent ||
      (entry.fetchedAt === storedAt && !Object.is(updated, this.sourceUpdatedAt[slot]));
    if (!changed) return false;
    const before: [number, number, number, number] = [
      storedAt,
      this.sourceUpdatedAt[slot]!,
      this.hashes[slot * 2]!,
      this.hashes[slot * 2 + 1]!,
    ];
    undo.push(() => this.set(slot, ...before));
    this.set(slot, entry.fetchedAt, updated, hashLow, hashHigh);
    return true;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.slotOf.byteLength + this.fetchedAt.byteLength * 2 + this.hashes.byteLength;
  }

  private slotFor(key: number): number {
    this.slotOf = grown(this.slotOf, key + 1, (n) => new Int32Array(n));
    const held = this.slotOf[key]!;
    if (held > 0) return held - 1;
    const slot = this.slots++;
    this.slotOf[key] = slot + 1;
    this.fetchedAt = grown(this.fetchedAt, this.slots, (n) => new Float64Array(n));
    this.sourceUpdatedAt = grown(this.sourceUpdatedAt, this.slots, (n) => new Float64Array(n));
    this.hashes = grown(this.hashes, this.slots * 2, (n) => new Int32Array(n));
    this.fetchedAt[slot] = Number.NaN;
    return slot;
  }

  private set(slot: number, at: number, updated: number, low: number, high: number): void {
    this.fetchedAt[slot] = at;
    this.sourceUpdatedAt[slot] = updated;
    this.hashes[slot * 2] = low;
    this.hashes[slot * 2 + 1] = high;
  }
}

/** Item codes: the entries' names for (game, item id). */
export class SideItems {
  private readonly codes = new Map<Game, Map<string, number>>();
  private readonly names: string[] = [];
  private lastCode = 0;

  constructor(private readonly s: SideStatements) {}

  /** Takes in the codes other connections stored since the last call. */
  refresh(): void {
    for (const [code, game, itemId] of this.s.itemsAfter.iterate(this.lastCode)) {
      this.add(code, game, itemId);
    }
  }

  nameOf(code: number): string {
    const name = this.names[code];
    if (name === undefined) throw new Error(`side item code ${code} is not in side_items`);
    return name;
  }

  /** The item's code, stored (in the caller's transaction) if it is new. */
  codeFor(game: Game, itemId: string, undo: Undo): number {
    const known = this.codes.get(game)?.get(itemId);
    if (known !== undefined) return known;
    if (typeof itemId !== 'string') throw new Error('side itemId must be text');
    const code = this.lastCode + 1;
    this.s.insertItem.run(code, game, itemId);
    this.add(code, game, itemId);
    undo.push(() => this.remove(code, game, itemId));
    return code;
  }

  private add(code: number, game: Game, itemId: string): void {
    let ofGame = this.codes.get(game);
    if (ofGame === undefined) this.codes.set(game, (ofGame = new Map()));
    ofGame.set(itemId, code);
    this.names[code] = itemId;
    this.lastCode = Math.max(this.lastCode, code);
  }

  private remove(code: number, game: Game, itemId: string): void {
    this.codes.get(game)?.delete(itemId);
    this.names.length = code;
    this.lastCode = code - 1;
  }
}
