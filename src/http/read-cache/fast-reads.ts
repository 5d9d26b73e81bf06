/**
 * A path in front of Fastify's routing for latest-state cache hits. A GET whose exact URL a
 * route's LatestBodyCache holds runs the same key gate as the route (authenticate → plan gate
 * → quota, and the /v2 game switch), then writes the headers Fastify would (request id, quota
 * headers, JSON type, length, in the same order) and the cached bytes with `writeHead` / `end`,
 * and times the answer under the route's metrics label.
 *
 * Everything else goes to Fastify untouched, before any quota is spent: other methods, a URL
 * no cache holds, a body, a Host that is missing or repeated, a key that is not cached or not
 * valid, a plan without the feature, a disabled game, a miss for this plan and time (stale,
 * changed, never built), a limiter that cannot decide in-process. A quota refusal, decided
 * after spending, is handed to the route's gate (`handGate`) so it is counted once and
 * answered by Fastify's usual 429 path. Off with a trusted proxy (the client IP is Fastify's
 * to work out), with the access log on (its lines come from Fastify's hooks), and once the app
 * is closing (Fastify then answers everything with `Connection: close`). A hit's latency is
 * timed to `end()`, Fastify's to the response's finish: a hit reads a little faster.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { RouteOptions } from 'fastify';
import type { QuotaDecision } from '../../access/rate-limiter.ts';
import type { RouteTimer } from '../../metrics/http-metrics.ts';
import { hostProblem } from '../client-errors.ts';
import type { AppDeps } from '../deps.ts';
import { eachQuotaHeader, gateSpecOf, handGate, type GateSpec } from '../plugins/key-gate.ts';
import {
  authenticateInProcess,
  consumeInProcess,
  gameSwitchedOff,
  planRefusal,
} from '../plugins/gate-steps.ts';
import { requestIdFor } from '../plugins/request-id.ts';
import type { LatestBodyCache } from './latest-body-cache.ts';

/** The content type of every cached body, on both paths. */
export const JSON_TYPE = 'application/json; charset=utf-8';

interface GatedRoute extends GateSpec {
  timer: RouteTimer | null;
}

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

function hasBody(request: IncomingMessage): boolean {
  const { headers } = request;
  return headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined;
}

/** The headers the route sends with a 200, in Fastify's order (names as Fastify writes them). */
function headersOf(id: string, decision: QuotaDecision, length: number) {
  const headers: Record<string, string | number> = { 'x-request-id': id };
  eachQuotaHeader(decision, (name, value) => (headers[name] = value));
  headers['content-type'] = JSON_TYPE;
  headers['content-length'] = length;
  return headers;
}

export class FastReads {
  private readonly caches: LatestBodyCache[] = [];
  private readonly routes = new Map<string, GatedRoute>();
  readonly enabled: boolean;
  /** Requests answered here (for tests). */
  hits = 0;
  private stopped = false;

  constructor(private readonly deps: AppDeps) {
    this.enabled =
      deps.fastReads !== false &&
      !deps.accessLog &&
      !deps.trustProxy &&
      deps.authenticator.authenticateNow !== undefined &&
      deps.limiter.consumeNow !== undefined;
  }

  addCache(cache: LatestBodyCache): void {
    this.caches.push(cache);
  }

  /** An onRoute hook: remembers the gate of every key-gated GET route. */
  learnRoute(route: RouteOptions): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET')) return;
    const hooks = Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    const spec = hooks.map(gateSpecOf).find((found) => found !== undefined);
    if (spec === undefined) return;
    const timer = this.deps.metrics?.timerFor(route.url) ?? null;
    this.routes.set(route.url, { ...spec, timer });
  }

  /** Puts the fast path in front of the server's request listener (Fastify's router). */
  install(server: Server): void {
    if (!this.enabled) return;
    const [route] = server.listeners('request') as RequestListener[];
    if (route === undefined) throw new Error('fast reads: the server has no request listener');
    server.removeListener('request', route);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (!this.answerOrPass(request, response)) route.call(server, request, response);
    });
  }

  /** From now on Fastify answers everything (the app is closing). */
  stop(): void {
    this.stopped = true;
  }

  /**
   * A throw before anything was written goes to Fastify, which answers it through its error
   * handler as the route would have (the gate's steps that can throw all run before the quota
   * is spent).
   */
  private answerOrPass(request: IncomingMessage, response: ServerResponse): boolean {
    try {
      return this.answer(request, response);
    } catch (error) {
      if (response.headersSent) throw error;
      return false;
    }
  }

  /** Answers a cache hit and returns true; false when Fastify must answer. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || this.stopped) return false;
    const started = performance.now();
    const url = request.url ?? '';
    const held = this.held(url);
    if (held === null || hasBody(request) || hostProblem(request) !== null) return false;
    const { cache, route, game } = held;
    const ip = request.socket.remoteAddress;
    if (ip === undefined) return false;
    const now = this.deps.clock.now();
    const auth = authenticateInProcess(this.deps, request.headers.authorization, ip, now);
    if (auth === null || !auth.ok || planRefusal(this.deps, auth, route.feature) !== null)
      return false;
    if (gameSwitchedOff(this.deps, route.source === 'query', game)) return false;
    const body = cache.lookup(url, auth.plan, now);
    if (body === null) return false;
    const decision = consumeInProcess(this.deps, auth, now);
    if (decision === null) return false;
    if (!decision.allowed) {
      handGate(request, auth, decision);
      return false;
    }
    response.writeHead(200, headersOf(requestIdFor(request), decision, body.length));
    response.end(body);
    this.hits += 1;
    route.timer?.observe('GET', 200, (performance.now() - started) / 1000);
    return true;
  }

  private held(url: string) {
    for (const cache of this.caches) {
      const held = cache.held(url);
      if (held === undefined) continue;
      const route = this.routes.get(held.route);
      return route === undefined ? null : { cache, route, game: held.game };
    }
    return null;
  }
}
