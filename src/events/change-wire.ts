/**
 * The wire format of change events on a message channel. An event becomes one JSON message, or
 * several when its batch is large: records are cut into contiguous runs so that no message
 * exceeds `maxBytes` (UTF-8; a single record larger than that travels alone). Every message
 * carries the id of the publishing bus instance, that publisher's sequence number and its part
 * index; the receiver reassembles parts in order and reports a gap when a publisher's sequence
 * number is skipped. The event's own `origin` is payload and plays no part in this. Redis
 * stamps each message of an event with the event's `position` and `at` as it publishes it
 * (redis-change-bus.ts); a watch announcement travels as `watch` on the first part.
 */
import type { Game } from '../domain/games.ts';
import { isGame } from '../domain/games.ts';
import type { IngestBatch } from '../domain/quote.ts';
import type { ChangeEvent, ChangePosition } from './change-bus.ts';

export const DEFAULT_MAX_MESSAGE_BYTES = 1_000_000;

interface WireMessage {
  publisher: string;
  origin: string;
  seq: number;
  game: Game;
  part: number;
  parts: number;
  batch: IngestBatch;
  watch?: string[];
  position?: number;
  at?: number;
}

const LISTS = ['sides', 'sales', 'listings', 'salesStats'] as const;
/** Lists every message carries; `salesStats` may be absent (publishers before it existed). */
const REQUIRED_LISTS = ['sides', 'sales', 'listings'] as const;
type ListName = (typeof LISTS)[number];
type Chunk = Record<ListName, string[]>;

/** Room left for the envelope around the records (origin, numbers, list names). */
const ENVELOPE_RESERVE_BYTES = 200;

function chunkRecords(batch: IngestBatch, budget: number): Chunk[] {
  const chunks: Chunk[] = [];
  let chunk: Chunk = { sides: [], sales: [], listings: [], salesStats: [] };
  let bytes = 0;
  for (const list of LISTS) {
    for (const record of batch[list] ?? []) {
      const json = JSON.stringify(record);
      const size = Buffer.byteLength(json) + 1;
      if (bytes > 0 && bytes + size > budget) {
        chunks.push(chunk);
        chunk = { sides: [], sales: [], listings: [], salesStats: [] };
        bytes = 0;
      }
      chunk[list].push(json);
      bytes += size;
    }
  }
  chunks.push(chunk);
  return chunks;
}

/** The messages for one event; their sequence numbers are firstSeq, firstSeq + 1, … */
export function encodeChange(
  event: ChangeEvent,
  publisher: string,
  firstSeq: number,
  maxBytes: number,
): string[] {
  const ids = `"publisher":${JSON.stringify(publisher)},"origin":${JSON.stringify(event.origin)}`;
  const budget = Math.max(1, maxBytes - ENVELOPE_RESERVE_BYTES - Buffer.byteLength(ids));
  const chunks = chunkRecords(event.batch, budget);
  return chunks.map((chunk, part) => {
    const lists = LISTS.filter((list) => list !== 'salesStats' || chunk[list].length > 0)
      .map((list) => `"${list}":[${chunk[list].join(',')}]`)
      .join(',');
    const watch = part === 0 && event.watch ? `,"watch":${JSON.stringify(event.watch)}` : '';
    const head = `${ids},"seq":${firstSeq + part},"game":${JSON.stringify(event.game)}${watch}`;
    return `{${head},"part":${part},"parts":${chunks.length},"batch":{${lists}}}`;
  });
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}

function isWireMessage(value: unknown): value is WireMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  const batch = message.batch as Record<string, unknown> | null | undefined;
  return (
    typeof message.publisher === 'string' &&
    typeof message.origin === 'string' &&
    Number.isInteger(message.seq) &&
    isGame(message.game) &&
    Number.isInteger(message.part) &&
    Number.isInteger(message.parts) &&
    (message.watch === undefined || isStringList(message.watch)) &&
    (message.position === undefined || Number.isSafeInteger(message.position)) &&
    (message.at === undefined || Number.isSafeInteger(message.at)) &&
    typeof batch === 'object' &&
    batch !== null &&
    REQUIRED_LISTS.every((list) => Array.isArray(batch[list])) &&
    (batch.salesStats === undefined || Array.isArray(batch.salesStats))
  );
}

export function decodeMessage(raw: string): WireMessage {
  const value: unknown = JSON.parse(raw);
  if (!isWireMessage(value)) throw new Error('not a change message');
  return value;
}

interface Pending {
  game: Game;
  origin: string;
  parts: IngestBatch[];
  expected: number;
  watch: string[] | undefined;
}

interface PublisherState {
  lastSeq: number;
  pending: Pending | null;
}

export interface Received {
  event: ChangeEvent | null;
  /** The event's position, when Redis stamped one. */
  position?: ChangePosition;
  /** True when messages of this publisher were skipped before this one. */
  gap: boolean;
}

/** Remembers at most this many publishers (each start of an ingest process is a new one). */
const MAX_PUBLISHERS = 256;

function mergeParts(parts: IngestBatch[]): IngestBatch {
  if (parts.length === 1) return parts[0]!;
  return {
    sides: parts.flatMap((part) => part.sides),
    sales: parts.flatMap((part) => part.sales),
    listings: parts.flatMap((part) => part.listings),
    ...(parts.some((part) => part.salesStats)
      ? { salesStats: parts.flatMap((part) => part.salesStats ?? []) }
      : {}),
  };
}

/** Reassembles events from decoded messages, tracking each publisher's sequence. */
export class ChangeAssembler {
  private readonly publishers = new Map<string, PublisherState>();

  accept(message: WireMessage): Received {
    const state = this.stateOf(message.publisher);
    const gap = state.lastSeq >= 0 && message.seq !== state.lastSeq + 1;
    state.lastSeq = message.seq;
    if (gap || message.part === 0) state.pending = null;
    if (message.part === 0) {
      const { game, origin, parts, watch } = message;
      state.pending = { game, origin, parts: [], expected: parts, watch };
    }
    const pending = state.pending;
    if (!pending || pending.parts.length !== message.part || pending.expected !== message.parts) {
      state.pending = null;
      return { event: null, gap };
    }
    pending.parts.push(message.batch);
    if (pending.parts.length < pending.expected) return { event: null, gap };
    state.pending = null;
    const event: ChangeEvent = {
      game: pending.game,
      batch: mergeParts(pending.parts),
      origin: pending.origin,
      ...(pending.watch ? { watch: pending.watch } : {}),
    };
    const { position, at } = message;
    if (position === undefined || at === undefined) return { event, gap };
    return { event, gap, position: { position, at } };
  }

  private stateOf(publisher: string): PublisherState {
    let state = this.publishers.get(publisher);
    if (state) return state;
    if (this.publishers.size >= MAX_PUBLISHERS) {
      const oldest = this.publishers.keys().next().value;
      if (oldest !== undefined) this.publishers.delete(oldest);
    }
    state = { lastSeq: -1, pending: null };
    this.publishers.set(publisher, state);
    return state;
  }
}
