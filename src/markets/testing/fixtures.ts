/**
 * Connector fixtures: JSON files under `src/markets/<market>/fixtures/`, written from each
 * market's documented examples and field lists. Two shapes:
 * - a response fixture `{description, source, now, request, response: {status, body},
 *   expected: {observations, rejected, next?, remember?, unknownItems?}}` runs `response.body`
 *   through the connector's parser for `request.kind`;
 * - a plan fixture `{description, plan: {game, now, priorities?, credentials?, memory?},
 *   expected: {requests}}` checks the requests one poll builds.
 * The same response fixtures are what the loopback stand-ins serve at the market's real paths.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Game } from '../../domain/games.ts';
import type { Observation } from '../../domain/observation.ts';
import type { ConnectorRequest } from '../connector.ts';
import type { Rejection } from '../market-adapter.ts';

/**
 * Where a real response came from: a marketplace's own doc example or a recorded answer in a
 * permissively licensed public repository. Expected values of such a fixture are worked out by
 * hand from the raw body.
 */
export interface Capture {
  /** URL, or repository + path, of the body as published. */
  source: string;
  /** The repository commit, when the source is one. */
  commit?: string;
  /** When it was taken from the source (YYYY-MM-DD). */
  retrieved: string;
  licence: string;
}

export interface ResponseFixture {
  file: string;
  description: string;
  source: string;
  /** Set on fixtures made from responses a real marketplace sent (docs/markets.md "verified on"). */
  capture?: Capture;
  now: string;
  request: ConnectorRequest;
  response: { status?: number; headers?: Record<string, string>; body: unknown };
  /** false: a garbage or edge case the stand-ins must not serve as the market's normal answer. */
  serve?: boolean;
  /** What else a stand-in request must carry to get this answer: JSON body fields (lists aside). */
  match?: { body?: unknown };
  expected: {
    observations: Observation[];
    rejected: { reason: Rejection['reason']; detail?: string }[];
    next?: ConnectorRequest[];
    remember?: Record<string, string>;
    /** Names in `observations` that are not in our catalog (counted as unmapped by ingest). */
    unknownItems?: string[];
    /** A refusal the body carried (reported as a failed request of this kind). */
    failure?: { kind: string; detail?: string };
  };
}

export interface PlanFixture {
  file: string;
  description: string;
  plan: {
    game: Game;
    now: string;
    priorities?: string[];
    credentials?: Record<string, string>;
    memory?: Record<string, string>;
  };
  expected: { requests: ConnectorRequest[] };
}

export type Fixture = ResponseFixture | PlanFixture;

export const MARKETS_DIR = join(import.meta.dirname, '..');

export function isPlanFixture(fixture: Fixture): fixture is PlanFixture {
  return 'plan' in fixture;
}

export function loadFixtures(market: string): Fixture[] {
  const dir = join(MARKETS_DIR, market, 'fixtures');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const fixture = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Fixture;
      return { ...fixture, file: `${market}/fixtures/${name}` };
    });
}

export function responseFixtures(market: string): ResponseFixture[] {
  return loadFixtures(market).filter((fixture) => !isPlanFixture(fixture)) as ResponseFixture[];
}

/** The response fixtures made from real responses (with their `capture` provenance). */
export function captureFixtures(market: string): ResponseFixture[] {
  return responseFixtures(market).filter((fixture) => fixture.capture !== undefined);
}

/** The fixtures a stand-in serves: every response fixture not marked `serve: false`. */
export function servedFixtures(market: string): ResponseFixture[] {
  return responseFixtures(market).filter((fixture) => fixture.serve !== false);
}
