/**
 * A whole-catalog body served as prepared bytes (`/v1/items/all`, the bulk liquidity map, the
 * item schema snapshot, attribute snapshot pages): the JSON gzipped once, its length, and a
 * strong ETag. Only the gzip is kept (a fifth of the JSON or less); a client that does not
 * accept gzip gets the JSON inflated as it is sent, on the thread pool (`jsonStream`). A
 * `PayloadWriter` takes the body's text a piece at a time and encodes, hashes and compresses it
 * in chunks of 64 KB as it goes; compression runs on libuv's thread pool, so the thread that
 * writes (the HTTP thread) only ever encodes and hashes a chunk at a time. Builders pair it with
 * `Slicer` (slicer.ts) to yield between pieces; the final copy into one buffer yields too.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createGunzip, createGzip, type Gzip } from 'node:zlib';
import { Slicer } from './slicer.ts';

/** Prepared bytes of a body (an embedded part of a payload has no ETag of its own). */
export interface PreparedBytes {
  gzip: Buffer;
  /** Length of the JSON the gzip inflates to. */
  jsonBytes: number;
}

export interface PreparedPayload extends PreparedBytes {
  /** Quoted strong ETag, e.g. `"3q2-…"`: a hash of the JSON, so equal bytes give equal tags. */
  etag: string;
  rowCount: number;
  builtAt: number;
}

/** The JSON of prepared bytes, inflated on the thread pool as it is read. */
export function jsonStream(bytes: PreparedBytes): Readable {
  const gunzip = createGunzip();
  gunzip.end(bytes.gzip);
  return gunzip;
}

/** Bytes per encoded chunk (the unit that is hashed and handed to gzip). */
const CHUNK_BYTES = 64 * 1024;
export const DEFAULT_GZIP_LEVEL = 6;

/** Length of the ETag's hash part (base64url characters of a SHA-256). */
const ETAG_CHARS = 27;

/**
 * UTF-8 of `text` in a buffer of its own: a pooled one would keep its whole 8 KB pool alive. For
 * text kept long, such as cached rows: V8 returns a long JSON.stringify result as a rope of
 * parts, and each part is one more object for every full collection to mark.
 */
export function encodeText(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/**
 * Text encoded to UTF-8 straight into chunks of 64 KB as it is written (one `Buffer.write` per
 * piece: no joined strings, which V8 encodes slowly once one character is outside Latin-1),
 * each chunk hashed as it is sealed and kept in `chunks` unless `retain` is false.
 */
export class EncodedChunks {
  readonly chunks: Buffer[] = [];
  /** Bytes written so far (sealed chunks). */
  bytes = 0;
  private current = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private readonly hash: Hash = createHash('sha256');

  constructor(private readonly retain = true) {}

  write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit; measure exactly only near the chunk's end.
    if (this.used + text.length * 3 > CHUNK_BYTES) {
      const bytes = Buffer.byteLength(text);
      if (this.used + bytes > CHUNK_BYTES) this.seal();
      if (bytes > CHUNK_BYTES) return this.append(Buffer.from(text));
    }
    this.used += this.current.write(text, this.used);
  }

  /** Text encoded before (`encodeText`), copied in as `write` would have encoded it. */
  writeEncoded(bytes: Buffer): void {
    if (this.used + bytes.length > CHUNK_BYTES) this.seal();
    if (bytes.length > CHUNK_BYTES) return this.append(bytes);
    this.used += bytes.copy(this.current, this.used);
  }

  /** Appends bytes already encoded (after the text before them). */
  writeBytes(bytes: Buffer): void {
    this.seal();
    this.append(bytes);
  }

  /** Seals the last chunk; the SHA-256 of everything written (base64url). */
  digest(): string {
    this.seal();
    return this.hash.digest('base64url');
  }

  /** Hears every chunk as it is sealed. */
  protected onChunk(bytes: Buffer): void {
    void bytes;
  }

  private seal(): void {
    if (this.used === 0) return;
    const sealed = this.current.subarray(0, this.used);
    this.current = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
    this.append(sealed);
  }

  private append(bytes: Buffer): void {
    if (this.retain) this.chunks.push(bytes);
    this.bytes += bytes.length;
    this.hash.update(bytes);
    this.onChunk(bytes);
  }
}

/** One buffer of `parts`, copied a slice at a time (no single long copy of many MB). */
export async function concatInSlices(parts: readonly Buffer[], slicer: Slicer): Promise<Buffer> {
  let total = 0;
  for (const part of parts) total += part.length;
  const whole = Buffer.allocUnsafe(total);
  let offset = 0;
  for (const part of parts) {
    offset += part.copy(whole, offset);
    if (slicer.due()) await slicer.pause();
  }
  return whole;
}

/**
 * `EncodedChunks` that gzips each chunk (on the thread pool), keeps only the gzip, and finishes
 * a payload.
 */
export class PayloadWriter extends EncodedChunks {
  private readonly compressed: Buffer[] = [];
  private readonly gzip: Gzip;
  private readonly gzipped: Promise<void>;

  constructor(level = DEFAULT_GZIP_LEVEL) {
    super(false);
    this.gzip = createGzip({ level });
    this.gzip.on('data', (chunk: Buffer) => this.compressed.push(chunk));
    this.gzipped = new Promise((resolve, reject) => {
      this.gzip.once('end', resolve);
      this.gzip.once('error', reject);
    });
  }

  /** The gzip, the JSON's length and the hash-based ETag, once compression has caught up. */
  async finish(slicer = new Slicer()): Promise<PreparedBytes & { etag: string }> {
    const etag = `"${this.digest().slice(0, ETAG_CHARS)}"`;
    this.gzip.end();
    await this.gzipped;
    return { etag, jsonBytes: this.bytes, gzip: await concatInSlices(this.compressed, slicer) };
  }

  protected override onChunk(bytes: Buffer): void {
    this.gzip.write(bytes);
  }
}

/** Prepared bytes of a short text (a manifest, a test body) in one go. */
export async function preparedText(text: string, level = DEFAULT_GZIP_LEVEL) {
  const writer = new PayloadWriter(level);
  writer.write(text);
  return writer.finish();
}
