/**
 * Request ids: a client-sent `X-Request-ID` of 1–64 characters of [A-Za-z0-9_-] is echoed;
 * anything else is replaced by a generated `req_` + 16 base62 characters. The id is on every
 * response, errors included, and on every log line of the request.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const ID_LENGTH = 16;
/**
 * Random bytes are drawn in blocks (one syscall per 256 ids instead of one per request) and
 * turned into alphabet characters in place, so an id is one slice of the block.
 */
let pool = Buffer.alloc(0);
let offset = 0;

function drawPool(): void {
  pool = randomBytes(ID_LENGTH * 256);
  for (let index = 0; index < pool.length; index += 1) {
    pool[index] = ALPHABET.charCodeAt(pool[index]! % ALPHABET.length);
  }
  offset = 0;
}

export function newRequestId(): string {
  if (offset + ID_LENGTH > pool.length) drawPool();
  const id = `req_${pool.toString('latin1', offset, offset + ID_LENGTH)}`;
  offset += ID_LENGTH;
  return id;
}

export function requestIdFor(raw: IncomingMessage): string {
  const sent = raw.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && SANE_ID.test(sent) ? sent : newRequestId();
}
