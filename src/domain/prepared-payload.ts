/**
 * A whole-catalog body served as prepared bytes (`/v1/items/all`, the bulk liquidity map, the
 * item schema snapshot): its JSON, the JSON gzipped once, and a strong ETag. A `PayloadWriter`
 * takes the body's text a piece at a time and encodes, hashes and compresses it in chunks of
 * 64 KB as it goes; compression runs on libuv's thread pool, so the thread that writes (the
 * HTTP thread) only ever encodes and hashes a chunk at a time. Builders pair it with `Slicer`
 * (slicer.ts) to yield between pieces; the final copies into one buffer yield too.
 */
import { createHash, type Hash } from 'node:crypto';
import { createGzip, type Gzip } from 'node:zlib';
import { Slicer } from './slicer.ts';

export interface PreparedPayload {
  /** Quoted strong ETag, e.g. `"3q2-…"`: a hash of the JSON, so equal bytes give equal tags. */
  etag: string;
  json: Buffer;
  gzip: Buffer;
  rowCount: number;
  builtAt: number;
}

/** Prepared bytes of a body that another part of a payload embeds (no ETag of its own). */
export interface PreparedBytes {
  json: Buffer;
  gzip: Buffer;
}

/** Bytes per encoded chunk (the unit that is hashed and handed to gzip). */
const CHUNK_BYTES = 64 * 1024;
export const DEFAULT_GZIP_LEVEL = 6;

/** Length of the ETag's hash part (base64url characters of a SHA-256). */
const ETAG_CHARS = 27;

/**
 * Text encoded to UTF-8 straight into chunks of 64 KB as it is written (one `Buffer.write` per
 * piece: no joined strings, which V8 encodes slowly once one character is outside Latin-1),
 * each chunk hashed as it is sealed.
 */
export class EncodedChunks {
  readonly chunks: Buffer[] = [];
  private current = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private readonly hash: Hash = createHash('sha256');

  write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit; measure exactly only near the chunk's end.
    if (this.used + text.length * 3 > CHUNK_BYTES) {
      const bytes = Buffer.byteLength(text);
      if (this.used + bytes > CHUNK_BYTES) this.seal();
      if (bytes > CHUNK_BYTES) return this.append(Buffer.from(text));
    }
    this.used += this.current.write(text, this.used);
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
    this.chunks.push(bytes);
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

/** `EncodedChunks` that also gzips each chunk (on the thread pool) and finishes a payload. */
export class PayloadWriter extends EncodedChunks {
  private readonly compressed: Buffer[] = [];
  private readonly gzip: Gzip;
  private readonly gzipped: Promise<void>;

  constructor(level = DEFAULT_GZIP_LEVEL) {
    super();
    this.gzip = createGzip({ level });
    this.gzip.on('data', (chunk: Buffer) => this.compressed.push(chunk));
    this.gzipped = new Promise((resolve, reject) => {
      this.gzip.once('end', resolve);
      this.gzip.once('error', reject);
    });
  }

  /** The JSON, its gzip and the hash-based ETag, once compression has caught up. */
  async finish(slicer = new Slicer()): Promise<PreparedBytes & { etag: string }> {
    const etag = `"${this.digest().slice(0, ETAG_CHARS)}"`;
    this.gzip.end();
    const json = await concatInSlices(this.chunks, slicer);
    await this.gzipped;
    return { etag, json, gzip: await concatInSlices(this.compressed, slicer) };
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
