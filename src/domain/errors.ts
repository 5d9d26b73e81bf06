/**
 * The one error type the HTTP layer renders. Body shape (NestJS-compatible, which clients parse):
 * `{statusCode, message, error, code}`; validation errors carry `message` as an array of sentences.
 */
export type ErrorCode =
  | 'INVALID_PARAMETER'
  | 'UNAUTHORIZED'
  | 'SUBSCRIPTION_INACTIVE'
  | 'FEATURE_NOT_AVAILABLE'
  | 'IP_NOT_ALLOWED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'AMBIGUOUS_ITEM'
  | 'RATE_LIMITED'
  | 'NOT_READY'
  | 'UNAVAILABLE'
  | 'INTERNAL';

export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    readonly messages: string | string[],
    readonly headers: Readonly<Record<string, string | number>> = {},
  ) {
    super(Array.isArray(messages) ? messages.join('; ') : messages);
  }
}

/**
 * The one way to build a validation error (code INVALID_PARAMETER): `message` is an array of
 * sentences, one per problem, worded as in `parameter-sentences.ts`. 400, or 413 / 415 for a
 * request body the server cannot take.
 */
export const badRequest = (messages: readonly string[], status = 400) =>
  new ApiError(status, 'INVALID_PARAMETER', [...messages]);
export const notFound = (message = 'Not found') => new ApiError(404, 'NOT_FOUND', message);
export const unauthorized = () => new ApiError(401, 'UNAUTHORIZED', 'API key invalid or inactive');

/** 409: a selector that matches several items; the message names them. */
export const ambiguousItem = (names: readonly string[]) =>
  new ApiError(
    409,
    'AMBIGUOUS_ITEM',
    `The item selector matches ${names.length} items; use the exact name: ${names.join('; ')}`,
  );
