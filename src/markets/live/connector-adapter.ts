/**
 * A live connector behind the MarketAdapter port. One poll: check the required credentials,
 * build the poll's requests, send them one at a time through the market's HTTP channel (its
 * budget and breaker decide what may go out), parse each response with the connector's pure
 * parser for its kind, and follow the follow-up requests it returns (pagination), up to the
 * connector's per-poll cap. Pages that arrived are delivered even when later ones failed (the
 * poll is then `partial`); a poll where nothing arrived fails with the first failure's kind.
 */
import type { Clock } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type {
  Connector,
  ConnectorInfo,
  ConnectorRequest,
  PageResult,
  PollContext,
} from '../connector.ts';
import { HttpFailure, type HttpChannel } from '../http/market-http.ts';
import {
  AdapterError,
  type FetchContext,
  type MarketAdapter,
  type ParseResult,
} from '../market-adapter.ts';
import {
  redactedLine,
  redactHeaders,
  redactRequest,
  type PollRecorder,
  type RecordedExchange,
} from './recording.ts';
import { toHttpRequest } from './request-url.ts';
import { addOutcome, finishPoll, parsePollBody, safeParse, type PollBody } from './poll-body.ts';

export type { PollBody } from './poll-body.ts';

export interface ConnectorAdapterOptions {
  connector: Connector;
  channel: HttpChannel;
  /** The connector's default origin, or the markets file's `baseUrl`. */
  baseUrl: string;
  /** Poll cadence in ms (the connector's own, or the markets file's `pollSeconds`). */
  cadenceMs: number;
  /** Credential values by env name (only those that are set). */
  credentials: Readonly<Record<string, string>>;
  priorities?: (game: Game) => readonly string[];
  /** Signatures are dated with it. */
  clock: Clock;
  /** Replaces each request's own timeout (the markets file's `timeoutSeconds`). */
  timeoutMs?: number | null;
  /** `serve --record`: each poll's exchanges are written there (recording.ts). */
  recorder?: PollRecorder | null;
}

const DEFAULT_MAX_REQUESTS = 50;
const MEMORY_LIMIT = 200_000;

export class ConnectorAdapter implements MarketAdapter {
  readonly info: ConnectorInfo;
  private readonly memory = new Map<string, string>();

  constructor(private readonly options: ConnectorAdapterOptions) {
    this.info = { ...options.connector.info, cadenceMs: options.cadenceMs };
  }

  async fetchRaw(ctx: FetchContext): Promise<PollBody> {
    const recorded: RecordedExchange[] | null = this.options.recorder ? [] : null;
    try {
      const body = await this.poll(ctx, recorded);
      this.record(ctx, recorded, null);
      return body;
    } catch (error) {
      const failure = error instanceof AdapterError ? error : null;
      this.record(ctx, recorded, failure && recorded?.length === 0 ? failure : null);
      throw error;
    }
  }

  private async poll(ctx: FetchContext, recorded: RecordedExchange[] | null): Promise<PollBody> {
    const { connector, credentials } = this.options;
    this.checkCredentials();
    const poll: PollContext = {
      game: ctx.game,
      now: ctx.now,
      credentials,
      priorities: this.options.priorities?.(ctx.game) ?? [],
      memory: this.memory,
    };
    const queue = connector.requests(poll);
    const limit = connector.maxRequestsPerPoll ?? DEFAULT_MAX_REQUESTS;
    const body: PollBody = { pages: [], failures: [] };
    for (let sent = 0; queue.length > 0 && sent < limit; sent += 1) {
      const request = queue.shift()!;
      const outcome = await this.exchange(request, ctx.signal, recorded);
      const stop = addOutcome(body, request, outcome);
      if (stop) break;
      if (!(outcome instanceof HttpFailure) && !outcome.failure) {
        queue.push(...(outcome.next ?? []));
        this.remember(outcome.remember);
      }
    }
    return finishPoll(body);
  }

  private record(
    ctx: FetchContext,
    exchanges: RecordedExchange[] | null,
    failure: AdapterError | null,
  ): void {
    if (!exchanges || !this.options.recorder) return;
    this.options.recorder.poll({
      type: 'poll',
      market: this.info.id,
      game: ctx.game,
      startedAt: ctx.now,
      endedAt: this.options.clock.now(),
      exchanges,
      failure: failure ? { kind: failure.kind, message: failure.message } : null,
    });
  }

  parse(raw: unknown): ParseResult {
    return parsePollBody(raw as PollBody);
  }

  private checkCredentials(): void {
    const missing = this.options.connector.info.credentials
      .filter((credential) => credential.required && !this.options.credentials[credential.env])
      .map((credential) => credential.env);
    if (missing.length > 0) {
      throw new AdapterError(`${this.info.id}: ${missing.join(' and ')} not set`, false, 'auth');
    }
  }

  private async exchange(
    request: ConnectorRequest,
    signal: AbortSignal | undefined,
    recorded: RecordedExchange[] | null,
  ): Promise<PageResult | HttpFailure> {
    const { connector, channel, baseUrl, credentials, clock } = this.options;
    const parser = connector.parsers[request.kind];
    if (!parser)
      return new HttpFailure('internal', `${this.info.id}: no parser for ${request.kind}`);
    const timeoutMs = this.options.timeoutMs;
    const timed = timeoutMs ? { ...request, timeoutMs } : request;
    const http = toHttpRequest(this.info.id, baseUrl, timed, connector, credentials);
    const note = (answer: RecordedExchange['answer'], failure: RecordedExchange['failure']) =>
      recorded?.push({
        line: redactedLine(http.method, http.url, request.secret ?? []),
        request: redactRequest(request),
        answer,
        failure,
      });
    try {
      const response = await channel.send(http, signal);
      const at = response.receivedAt;
      note(
        {
          at,
          status: response.status,
          headers: redactHeaders(response.headers),
          body: response.body,
        },
        null,
      );
      return safeParse(() => parser(response.body, { game: request.game, now: at, request }));
    } catch (error) {
      const failure =
        error instanceof HttpFailure
          ? this.reclassified(request, error)
          : new HttpFailure('internal', `${this.info.id} ${request.kind}: ${String(error)}`);
      const { kind, status, message } = failure;
      note(null, { at: clock.now(), kind, status, message });
      return failure;
    }
  }

  private reclassified(request: ConnectorRequest, failure: HttpFailure): HttpFailure {
    const { status, kind, message } = failure;
    const read = this.options.connector.reclassify?.(request, { kind, status, detail: message });
    if (!read) return failure;
    return new HttpFailure(read.kind, read.detail, status, failure.retryAfterMs);
  }

  private remember(facts: Readonly<Record<string, string>> | undefined): void {
    if (!facts) return;
    for (const [key, value] of Object.entries(facts)) {
      if (this.memory.size >= MEMORY_LIMIT && !this.memory.has(key)) return;
      this.memory.set(key, value);
    }
  }
}
