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
import type { Observation } from '../../domain/observation.ts';
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
  type Rejection,
} from '../market-adapter.ts';
import { toHttpRequest } from './request-url.ts';

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
}

interface Failed {
  request: ConnectorRequest;
  failure: HttpFailure;
}

export interface PollBody {
  pages: PageResult[];
  failures: Failed[];
}

const DEFAULT_MAX_REQUESTS = 50;
const MEMORY_LIMIT = 200_000;
/** After these, the channel will not send anything for a while: stop the poll early. */
const STOPS_POLL = new Set(['budget', 'circuit_open', 'rate_limited', 'auth']);

export class ConnectorAdapter implements MarketAdapter {
  readonly info: ConnectorInfo;
  private readonly memory = new Map<string, string>();

  constructor(private readonly options: ConnectorAdapterOptions) {
    this.info = { ...options.connector.info, cadenceMs: options.cadenceMs };
  }

  async fetchRaw(ctx: FetchContext): Promise<PollBody> {
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
      const outcome = await this.exchange(request, ctx.signal);
      if (outcome instanceof HttpFailure) {
        body.failures.push({ request, failure: outcome });
        if (STOPS_POLL.has(outcome.kind)) break;
        continue;
      }
      if (outcome.failure) {
        const failure = new HttpFailure(outcome.failure.kind, outcome.failure.detail);
        body.failures.push({ request, failure });
        if (outcome.observations.length > 0) body.pages.push(outcome);
        if (STOPS_POLL.has(failure.kind)) break;
        continue;
      }
      body.pages.push(outcome);
      queue.push(...(outcome.next ?? []));
      this.remember(outcome.remember);
    }
    if (body.pages.length === 0 && body.failures.length > 0) {
      const first = body.failures[0]!.failure;
      throw new AdapterError(first.message, true, first.kind);
    }
    return body;
  }

  parse(raw: unknown): ParseResult {
    const body = raw as PollBody;
    const observations: Observation[] = [];
    const rejected: Rejection[] = [];
    for (const page of body.pages) {
      for (const observation of page.observations) observations.push(observation);
      for (const rejection of page.rejected) rejected.push(rejection);
    }
    const result: ParseResult = { observations, rejected };
    const first = body.failures[0];
    if (first) {
      const detail = `${body.failures.length} of ${body.failures.length + body.pages.length} requests failed; first: ${first.failure.message}`;
      result.partial = { kind: first.failure.kind, detail };
    }
    return result;
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
  ): Promise<PageResult | HttpFailure> {
    const { connector, channel, baseUrl, credentials } = this.options;
    const parser = connector.parsers[request.kind];
    if (!parser)
      return new HttpFailure('internal', `${this.info.id}: no parser for ${request.kind}`);
    try {
      const timeoutMs = this.options.timeoutMs;
      const timed = timeoutMs ? { ...request, timeoutMs } : request;
      const http = toHttpRequest(this.info.id, baseUrl, timed, connector, credentials);
      const response = await channel.send(http, signal);
      return safeParse(() =>
        parser(response.body, { game: request.game, now: response.receivedAt, request }),
      );
    } catch (error) {
      if (error instanceof HttpFailure) return this.reclassified(request, error);
      return new HttpFailure('internal', `${this.info.id} ${request.kind}: ${String(error)}`);
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

/** A parser that throws is a bug, not upstream garbage: its page becomes one rejection. */
function safeParse(parse: () => PageResult): PageResult {
  try {
    const result = parse();
    if (!Array.isArray(result?.observations) || !Array.isArray(result?.rejected)) {
      return {
        observations: [],
        rejected: [{ reason: 'malformed', detail: 'parser returned no arrays' }],
      };
    }
    return result;
  } catch (error) {
    return {
      observations: [],
      rejected: [{ reason: 'malformed', detail: `parser threw: ${String(error)}` }],
    };
  }
}
