/**
 * Tells "the store's database is unreachable or going away" apart from every other database
 * error, so the HTTP layer can answer 503 with Retry-After and ingest can back off and retry,
 * while a constraint violation or a bug still surfaces as a failure. The codes and messages are
 * PostgreSQL's and its driver's (the SQLite store is a local file and never unavailable).
 */

/** Socket-level failures: nothing reached a working server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * SQLSTATEs of a server that cannot serve this database now: shutting down or terminated by an
 * administrator (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 57P05
 * idle_session_timeout, 25P03 idle_in_transaction_session_timeout), out of connection slots
 * (53300 too_many_connections, 53400 configuration_limit_exceeded), or a read-only standby
 * refusing a write (25006 read_only_sql_transaction).
 */
const SERVER_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '57P05',
  '25P03',
  '53300',
  '53400',
  '25006',
]);

/**
 * 55000 (object_not_in_prerequisite_state) is also what a database refusing connections sends
 * (`ALTER DATABASE … ALLOW_CONNECTIONS false`); only that message counts, not every 55000.
 */
const REFUSED_DATABASE = { code: '55000', message: 'is not currently accepting connections' };

/** What pg itself throws when a connection times out or drops (it sets no code for these). */
const DRIVER_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
];

function ownCode(error: object): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function isUnavailableCause(error: object): boolean {
  const code = ownCode(error);
  if (code !== undefined) {
    // Class 08 is "connection exception" (e.g. 08006 connection failure, 08001 cannot connect).
    if (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08')) return true;
  }
  const message = (error as { message?: unknown }).message;
  if (typeof message !== 'string') return false;
  if (code === REFUSED_DATABASE.code) return message.includes(REFUSED_DATABASE.message);
  return DRIVER_MESSAGES.some((text) => message.includes(text));
}

/** Nested errors: an AggregateError's list (Node's dual-stack connect) and `cause` chains. */
function innerErrors(error: object): unknown[] {
  const inner: unknown[] = [];
  const { errors, cause } = error as { errors?: unknown; cause?: unknown };
  if (Array.isArray(errors)) inner.push(...(errors as unknown[]));
  if (cause !== undefined) inner.push(cause);
  return inner;
}

const MAX_DEPTH = 4;

function searchUnavailable(error: unknown, depth: number): boolean {
  if (typeof error !== 'object' || error === null || depth > MAX_DEPTH) return false;
  if (isUnavailableCause(error)) return true;
  return innerErrors(error).some((inner) => searchUnavailable(inner, depth + 1));
}

/** True when `error` means the database cannot be reached right now (retry later). */
export function isUnavailableError(error: unknown): boolean {
  return searchUnavailable(error, 0);
}
