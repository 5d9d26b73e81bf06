/**
 * One error envelope for every 4xx/5xx (NestJS shape plus `code`):
 * `{statusCode, message, error, code}`. Framework errors (validation, bodies, bad URLs) are
 * translated here; a store that cannot be reached (PostgreSQL down: history reads, a key not
 * yet cached) becomes 503 UNAVAILABLE with Retry-After; anything else unexpected becomes a 500
 * whose details go to the log only.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, badRequest, notFound, STATUS_TEXT, type ErrorCode } from '../domain/errors.ts';
import { isUnavailableError } from '../store/unavailable.ts';
import { validationMessages } from './validation-messages.ts';

export interface ErrorEnvelope {
  statusCode: number;
  message: string | string[];
  error: string;
  code: ErrorCode;
}

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? STATUS_CODES[status] ?? 'Error';
}

export function envelope(error: ApiError): ErrorEnvelope {
  return {
    statusCode: error.statusCode,
    message: error.messages,
    error: statusText(error.statusCode),
    code: error.code,
  };
}

const FRAMEWORK_MESSAGES: Readonly<Record<string, string>> = {
  FST_ERR_BAD_URL: 'Malformed URL',
  FST_ERR_MAX_PARAM_LENGTH: 'URL path parameter is too long',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Media Type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty but content-type is application/json',
};

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && typeof (error as FastifyError).code === 'string';
}

/**
 * A file server's refusal (http-errors from @fastify/send, which carry `expose` and a 4xx
 * `status` but no code): 400 for a NUL byte or an undecodable path, 403 for a path that leaves
 * the served folder. A client error, never a 500; a refused path reads as 404, like a missing file.
 */
function fileServingRefusal(error: Error): ApiError | null {
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  if (typeof expose !== 'boolean' || typeof status !== 'number') return null;
  if (status < 400 || status >= 500) return null;
  if (status === 403 || status === 404) return notFound();
  return badRequest([status === 400 ? 'Malformed URL' : statusText(status)], status);
}

/** Seconds a client is asked to wait while a backing store is unreachable. */
export const UNAVAILABLE_RETRY_SECONDS = 5;

export function unavailable(): ApiError {
  return new ApiError(
    503,
    'UNAVAILABLE',
    'A backing store is temporarily unreachable; retry later',
    {
      'Retry-After': UNAVAILABLE_RETRY_SECONDS,
    },
  );
}

/** Maps any thrown value to the ApiError to render; null means "internal error". */
export function toApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (isUnavailableError(error)) return unavailable();
  if (!(error instanceof Error)) return null;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return badRequest(validationMessages(fastifyError.validation, fastifyError.validationContext));
  }
  const refused = fileServingRefusal(error);
  if (refused) return refused;
  const status = fastifyError.statusCode;
  if (isFastifyError(error) && status !== undefined && status >= 400 && status < 500) {
    return badRequest([FRAMEWORK_MESSAGES[fastifyError.code] ?? statusText(status)], status);
  }
  return null;
}

export const INTERNAL_MESSAGE = 'Internal server error';

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send(envelope(error));
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const known = toApiError(error);
  if (known?.statusCode === 503 && known.code === 'UNAVAILABLE' && !(error instanceof ApiError)) {
    request.log.warn({ err: error, requestId: request.id }, 'backing store unreachable');
  }
  if (known) return sendError(reply, known);
  request.log.error({ err: error, requestId: request.id }, 'internal error');
  return sendError(reply, new ApiError(500, 'INTERNAL', INTERNAL_MESSAGE));
}
