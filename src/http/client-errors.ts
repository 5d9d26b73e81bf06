/**
 * Answers for what Node's HTTP server refuses before Fastify sees a request, in the one error
 * envelope with an `X-Request-ID`, so every response the process sends has both:
 * - parser errors (`clientError`): 431 for a request line and headers over the size limit (an
 *   over-long URL included), 408 for a request not complete in time, 413 for oversized chunk
 *   extensions, 400 for the rest (an unknown method, malformed chunking, Content-Length with
 *   Transfer-Encoding, bad header characters, HTTP/2 without TLS…); the connection then closes;
 * - an `Expect` other than `100-continue` (417) and `CONNECT` (400: this is not a proxy).
 * A missing or repeated Host on HTTP/1.1 is refused by `requireOneHost`, inside the pipeline.
 */
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../domain/errors.ts';
import type { ErrorEnvelope } from './errors.ts';
import { drainAndCloseLingering } from './linger.ts';
import { newRequestId, requestIdFor } from './plugins/request-id.ts';

export interface Refusal {
  status: number;
  message: string;
}

const PARSER_MESSAGES: Readonly<Record<string, string>> = {
  HPE_INVALID_METHOD: 'Unknown HTTP method',
  HPE_INVALID_CHUNK_SIZE: 'Malformed chunked body',
  HPE_INVALID_CONTENT_LENGTH: 'Content-Length must be a non-negative integer',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length must be sent once, with one value',
  HPE_INVALID_HEADER_TOKEN: 'A header name or value has an invalid character',
  HPE_INVALID_VERSION: 'Malformed or unsupported HTTP version',
  HPE_INVALID_URL: 'Malformed URL',
  HPE_PAUSED_H2_UPGRADE: 'HTTP/2 is not supported; use HTTP/1.1',
};

function transferEncodingMessage(error: NodeJS.ErrnoException & { reason?: string }): string {
  return /content-length/i.test(error.reason ?? error.message)
    ? 'Content-Length and Transfer-Encoding must not both be set'
    : 'Transfer-Encoding must end with chunked';
}

/** What to answer for a parser error, by its code. */
export function refusalFor(error: NodeJS.ErrnoException): Refusal {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        message: `Request line and headers must not exceed ${maxHeaderSize} bytes`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'Chunk extensions are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'Request not received in time' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return { status: 400, message: transferEncodingMessage(error) };
    default:
      return {
        status: 400,
        message: PARSER_MESSAGES[error.code ?? ''] ?? 'Malformed HTTP request',
      };
  }
}

function envelopeOf(refusal: Refusal): ErrorEnvelope {
  const error = badRequest([refusal.message], refusal.status);
  return {
    statusCode: refusal.status,
    message: error.messages,
    error: STATUS_CODES[refusal.status] ?? 'Error',
    code: error.code,
  };
}

/** The whole HTTP/1.1 response, for writing straight to a socket. */
export function rawRefusal(refusal: Refusal, requestId: string): string {
  const body = JSON.stringify(envelopeOf(refusal));
  return [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-ID: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

interface InFlight {
  _httpMessage?: { headersSent?: boolean } | null;
}

/**
 * Fastify's `clientErrorHandler`: answers when nothing of a response was written yet, then closes
 * lingering (linger.ts), so the answer is not lost to a reset while the client still sends.
 */
export function answerClientError(
  this: { log: FastifyBaseLogger },
  error: NodeJS.ErrnoException,
  socket: Duplex,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const requestId = newRequestId();
  const refusal = refusalFor(error);
  this.log.debug(
    { requestId, code: error.code, status: refusal.status },
    'request refused by the HTTP parser',
  );
  const inFlight = (socket as Duplex & InFlight)._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.write(rawRefusal(refusal, requestId));
  drainAndCloseLingering(socket);
}

function answer(response: ServerResponse, request: IncomingMessage, refusal: Refusal): void {
  const body = JSON.stringify(envelopeOf(refusal));
  response.writeHead(refusal.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Request-ID': requestIdFor(request),
    Connection: 'close',
  });
  response.end(body);
}

/** Envelope answers for the requests Node would otherwise answer (417) or drop (CONNECT) itself. */
export function answerNodeRefusals(server: Server): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const expect = String(request.headers.expect ?? '');
    answer(response, request, {
      status: 417,
      message: `Expect: ${expect.slice(0, 64)} is not supported; only 100-continue is`,
    });
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const refusal = {
      status: 400,
      message: 'CONNECT is not supported: this server is not a proxy',
    };
    socket.on('error', () => socket.destroy());
    socket.end(rawRefusal(refusal, requestIdFor(request)));
  });
}

/** Host headers of a request (raw, so a repeated one counts twice). */
function hostHeaders(message: IncomingMessage): number {
  const raw = message.rawHeaders;
  let count = 0;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count += 1;
  }
  return count;
}

/**
 * What is wrong with a request's Host headers: HTTP/1.1 requires exactly one (RFC 9112 §3.2).
 * Null when nothing is.
 */
export function hostProblem(message: IncomingMessage): string | null {
  if (message.httpVersion !== '1.1') return null;
  const hosts = hostHeaders(message);
  if (hosts === 1) return null;
  return hosts === 0 ? 'Host header is required' : 'Host header must be sent once';
}

/**
 * Node's own Host check answers without the envelope, so it is off (`requireHostHeader:
 * false`) and this hook answers instead.
 */
export async function requireOneHost(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const problem = hostProblem(request.raw);
  if (problem === null) return;
  reply.header('Connection', 'close');
  throw badRequest([problem]);
}
