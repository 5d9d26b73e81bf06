/**
 * What `serve --record DIR` writes: one line per live poll (market, game, start and end time)
 * with each exchange of the poll in order: the connector's request (kind, meta, the request
 * line), the time of the answer, its status, headers and body as the parser received it, or
 * the failure when no usable answer came. Secrets never reach a recording: query parameters
 * and headers the connector marks secret, credential-like names (keys, tokens, sessions,
 * signatures, cookies) and `Set-Cookie` are written as `[redacted]`; signature headers are
 * computed at send time and are not part of the request recorded.
 */
import type { FetchFailure } from '../../domain/fetch-failure.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { ConnectorRequest, QueryValue } from '../connector.ts';

export const REDACTED = '[redacted]';

export interface RecordedAnswer {
  at: number;
  status: number;
  headers: Record<string, string>;
  /** The decoded body: JSON as parsed, or text. */
  body: unknown;
}

export interface RecordedExchange {
  /** `GET https://host/path?query` with secrets redacted. */
  line: string;
  request: ConnectorRequest;
  answer: RecordedAnswer | null;
  failure: { at: number; kind: FetchFailure; status: number | null; message: string } | null;
}

export interface RecordedPoll {
  type: 'poll';
  market: MarketId;
  game: Game;
  startedAt: number;
  endedAt: number;
  exchanges: RecordedExchange[];
  /** A failure before any request (a required credential not set). */
  failure: { kind: FetchFailure; message: string } | null;
}

/** Exchange rates in force from `at` (serve records them whenever they change). */
export interface RecordedFx {
  type: 'fx';
  at: number;
  table: { asOf: number; source: string; usdMicroPerUnit: Record<string, number> };
}

export type RecordingLine = RecordedPoll | RecordedFx;

export interface PollRecorder {
  poll(line: RecordedPoll): void;
}

const SECRET_NAME =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api[-_]?key|key|api|token|access[-_]?token|secret|password|session)$|sign|secret|token|session|cookie|auth/i;

function isSecret(name: string, secrets: readonly string[]): boolean {
  const lower = name.toLowerCase();
  return SECRET_NAME.test(name) || secrets.some((secret) => secret.toLowerCase() === lower);
}

export function redactHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  secrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    out[name] = isSecret(name, secrets) ? REDACTED : value;
  }
  return out;
}

function redactQuery(
  query: Readonly<Record<string, QueryValue>>,
  secrets: readonly string[],
): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [name, value] of Object.entries(query))
    out[name] = isSecret(name, secrets) ? REDACTED : value;
  return out;
}

/** The connector request without its secrets (what a recording and a fixture may hold). */
export function redactRequest(request: ConnectorRequest): ConnectorRequest {
  const secrets = request.secret ?? [];
  return {
    ...request,
    ...(request.query ? { query: redactQuery(request.query, secrets) } : {}),
    ...(request.headers ? { headers: redactHeaders(request.headers, secrets) } : {}),
  };
}

/** `METHOD url` with every secret query value redacted. */
export function redactedLine(method: string, url: string, secrets: readonly string[]): string {
  const parsed = new URL(url);
  for (const name of [...parsed.searchParams.keys()]) {
    if (isSecret(name, secrets)) parsed.searchParams.set(name, REDACTED);
  }
  return `${method} ${parsed.toString()}`;
}
