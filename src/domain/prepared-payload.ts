/**
 * A whole-catalog body served as prepared bytes (`/v1/items/all`, the bulk liquidity map, the
 * item schema snapshot): its JSON, the JSON gzipped once, and a strong ETag. A `PayloadWriter`
 * takes the body's text a piece at a time and encodes, hashes and compresses it in chunks of
 * about 64 KB as it goes; compression runs on libuv's thread pool, so the thread that writes
 * (the HTTP thread) only ever does a few hundred microseconds of encoding and hashing at a
 * time. Builders pair it with `Slicer` (slicer.ts) to yield between pieces.
 */
import { createHash, type Hash } from 'node:crypto';
import { createGzip, type Gzip } from 'node:zlib';

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

/** Text gathered before it is encoded into one chunk (characters). */
const CHUNK_CHARS = 64 * 1024;
export const DEFAULT_GZIP_LEVEL = 6;

/** Length of the ETag's hash part (base64url characters of a SHA-256). */
const ETAG_CHARS = 27;

/** Text encoded to UTF-8 in chunks of about 64 KB as it is written, hashed as it goes. */
export class EncodedChunks {
  readonly chunks: Buffer[] = [];
  private readonly pending: string[] = [];
  private pendingChars = 0;
  private readonly hash: Hash = createHash('sha256');

  /** Appends text; encodes a chunk once about 64 KB are pending. */
  write(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= CHUNK_CHARS) this.flush();
  }

  /** Appends bytes already encoded (after any pending text). */
  writeBytes(bytes: Buffer): void {
    this.flush();
    this.append(bytes);
  }

  /** Encodes what is pending; the SHA-256 of everything written (base64url). */
  digest(): string {
    this.flush();
    return this.hash.digest('base64url');
  }

  /** Hears every chunk as it is encoded. */
  protected onChunk(bytes: Buffer): void {
    void bytes;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const bytes = Buffer.from(this.pending.join(''));
    this.pending.length = 0;
    this.pendingChars = 0;
    this.append(bytes);
  }

  private append(bytes: Buffer): void {
    this.chunks.push(bytes);
    this.hash.update(bytes);
    this.onChunk(bytes);
  }
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
  async finish(): Promise<PreparedBytes & { etag: string }> {
    const etag = `"${this.digest().slice(0, ETAG_CHARS)}"`;
    this.gzip.end();
    await this.gzipped;
    return { etag, json: Buffer.concat(this.chunks), gzip: Buffer.concat(this.compressed) };
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
