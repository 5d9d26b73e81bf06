/**
 * One HTTP attempt through undici (https://undici.nodejs.org): a keep-alive Agent, a
 * whole-request timeout, decompression with node:zlib (gzip, deflate, Brotli — Skinport
 * requires `br`; undici's own decompress interceptor is still marked experimental), and a cap
 * on the decompressed body that aborts the read as soon as it is passed (a compression bomb
 * costs at most the cap). Socket and timeout errors become `HttpFailure`s (`dns`, `tls`,
 * `network`, `timeout`); statuses are left
 * to the caller.
 */
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, request } from 'undici';
import { socketKind } from './failure-kind.ts';
import { HttpFailure, type HttpRequest } from './market-http.ts';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Transport {
  attempt(
    request: HttpRequest,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<RawResponse>;
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** Error bodies are read only this far (enough to log what the upstream said). */
const ERROR_BODY_BYTES = 16 * 1024;

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

function flattenHeaders(
  raw: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined)
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

const DECODERS: Readonly<Record<string, () => NodeJS.ReadWriteStream>> = {
  br: createBrotliDecompress,
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
};

function decoded(body: Readable, encoding: string | undefined, label: string): Readable {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  if (name === 'identity' || name === '') return body;
  const decoder = DECODERS[name];
  if (!decoder) throw new HttpFailure('parse', `${label}: unsupported content-encoding ${name}`);
  const stream = decoder();
  body.on('error', (error) => stream.emit('error', error));
  return body.pipe(stream) as unknown as Readable;
}

async function readCapped(
  body: Readable,
  maxBytes: number,
  label: string,
  truncate: boolean,
  stop: () => void,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      stop();
      if (truncate) return Buffer.concat(chunks);
      throw new HttpFailure('too_large', `${label}: body larger than ${maxBytes} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Errors raised before a connection existed: the upstream never saw the request. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

function networkFailure(error: unknown, label: string, timedOut: boolean): HttpFailure {
  if (error instanceof HttpFailure) return error;
  const code = (error as { code?: string }).code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (timedOut || /TIMEOUT/.test(code)) return new HttpFailure('timeout', `${label}: timed out`);
  if (/^Z_|ERR_ZLIB|ERR__ERROR/.test(code) || /zlib|decompress|incorrect header/i.test(message)) {
    return new HttpFailure('parse', `${label}: body does not decompress (${message})`);
  }
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  const kind = socketKind(cause ?? code);
  const reached = kind === 'network' && !NEVER_SENT.has(cause ?? code);
  const detail = `${label}: ${cause ?? code ?? ''} ${message}`.trim();
  return new HttpFailure(kind, detail, null, null, reached);
}

export function createUndiciTransport(): Transport {
  const agent = new Agent({
    keepAliveTimeout: 10_000,
    connections: 16,
    connect: { timeout: 10_000 },
  });

  return {
    async attempt(req, headers, signal) {
      const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const timeout = AbortSignal.timeout(timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        const response = await request(req.url, {
          dispatcher: agent,
          method: req.method,
          headers,
          body: req.body ?? null,
          signal: combined,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const ok = response.statusCode >= 200 && response.statusCode < 300;
        const stream = decoded(
          response.body,
          headerText(response.headers['content-encoding']),
          req.label,
        );
        const body = await readCapped(
          stream,
          ok ? (req.maxBytes ?? DEFAULT_MAX_BYTES) : ERROR_BODY_BYTES,
          req.label,
          !ok,
          () => response.body.destroy(),
        );
        return { status: response.statusCode, headers: flattenHeaders(response.headers), body };
      } catch (error) {
        if (signal?.aborted && !timeout.aborted) {
          throw new HttpFailure('network', `${req.label}: aborted by the caller`);
        }
        throw networkFailure(error, req.label, timeout.aborted);
      }
    },
    close: () => agent.close(),
  };
}
