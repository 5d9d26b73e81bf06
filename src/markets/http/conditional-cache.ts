/**
 * Conditional requests (RFC 9110 §13): the last validators (`ETag`, `Last-Modified`) and parsed
 * body per URL, so a revalidation that answers 304 Not Modified costs the upstream no body and
 * still yields the data. Only GETs whose response carried a validator are kept; the least
 * recently used entry goes first beyond `maxEntries`.
 */
export interface CachedResponse {
  etag: string | null;
  lastModified: string | null;
  body: unknown;
  headers: Readonly<Record<string, string>>;
}

export class ConditionalCache {
  private readonly entries = new Map<string, CachedResponse>();

  constructor(private readonly maxEntries = 256) {}

  /** The validator headers for a revalidation of `url`, empty when nothing is stored. */
  validators(url: string): Record<string, string> {
    const entry = this.entries.get(url);
    if (!entry) return {};
    const headers: Record<string, string> = {};
    if (entry.etag !== null) headers['if-none-match'] = entry.etag;
    if (entry.lastModified !== null) headers['if-modified-since'] = entry.lastModified;
    return headers;
  }

  get(url: string): CachedResponse | undefined {
    const entry = this.entries.get(url);
    if (entry) {
      this.entries.delete(url);
      this.entries.set(url, entry);
    }
    return entry;
  }

  remember(url: string, headers: Readonly<Record<string, string>>, body: unknown): void {
    const etag = headers['etag'] ?? null;
    const lastModified = headers['last-modified'] ?? null;
    this.entries.delete(url);
    if (etag === null && lastModified === null) return;
    this.entries.set(url, { etag, lastModified, body, headers });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
