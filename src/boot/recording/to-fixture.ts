/**
 * `pricing replay DIR --to-fixture OUT`: the newest recorded answer of each (market, game,
 * request kind) as a connector response fixture (src/markets/testing/fixtures.ts), its
 * `expected` block filled in by today's parser. Copied into `src/markets/<market>/fixtures/`
 * it is run by the shared fixture test and served by the stand-ins; its expected values must
 * first be checked by hand against the body (currency, units, names, phases), and its source,
 * date and licence named in `source`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../../catalog/catalog.ts';
import { resolveItem } from '../../catalog/resolve-item.ts';
import { iso } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { Connector } from '../../markets/connector.ts';
import { LIVE_CONNECTORS } from '../../markets/connectors.ts';
import type { RecordedAnswer, RecordedExchange } from '../../markets/live/recording.ts';
import { readRecording } from './recording-files.ts';

interface Latest {
  market: string;
  exchange: RecordedExchange & { answer: RecordedAnswer };
}

function fixtureOf(
  connector: Connector,
  { exchange }: Latest,
  catalog: Catalog | undefined,
): Record<string, unknown> {
  const { request, answer, line } = exchange;
  const result = connector.parsers[request.kind]!(answer.body, {
    game: request.game,
    now: answer.at,
    request,
  });
  const unknownItems = [
    ...new Set(
      result.observations
        .map((o) => o.item)
        .filter((name) => !catalog || !resolveItem(catalog, name)),
    ),
  ].sort();
  return {
    description: `recorded answer to ${line}`,
    source: `recorded by pricing serve --record at ${iso(answer.at)}; check every expected value against the body by hand and name the source, date and licence here`,
    now: iso(answer.at),
    request,
    response: { status: answer.status, body: answer.body },
    serve: false,
    expected: {
      observations: result.observations,
      rejected: result.rejected.map(({ reason, detail }) => ({ reason, detail })),
      ...(result.next?.length ? { next: result.next } : {}),
      ...(result.remember ? { remember: result.remember } : {}),
      ...(unknownItems.length > 0 ? { unknownItems } : {}),
      ...(result.failure ? { failure: result.failure } : {}),
    },
  };
}

/** Writes one fixture per (market, game, kind); returns the files written. */
export function recordingToFixtures(
  dir: string,
  out: string,
  catalogs: Partial<Record<Game, Catalog>>,
  markets: readonly string[] = [],
): string[] {
  const connectors = new Map(
    LIVE_CONNECTORS.map((connector) => [connector.info.id as string, connector]),
  );
  const latest = new Map<string, Latest>();
  for (const line of readRecording(dir)) {
    if (line.type !== 'poll' || (markets.length > 0 && !markets.includes(line.market))) continue;
    for (const exchange of line.exchanges) {
      const answer = exchange.answer;
      if (!answer || !connectors.get(line.market)?.parsers[exchange.request.kind]) continue;
      const key = `${line.market}-${exchange.request.game}-${exchange.request.kind}`;
      latest.set(key, { market: line.market, exchange: { ...exchange, answer } });
    }
  }
  mkdirSync(out, { recursive: true });
  return [...latest].map(([key, entry]) => {
    const connector = connectors.get(entry.market)!;
    const fixture = fixtureOf(connector, entry, catalogs[entry.exchange.request.game]);
    const path = join(out, `recorded-${key.replace(/[^a-z0-9-]+/gi, '-')}.json`);
    writeFileSync(path, `${JSON.stringify(fixture, null, 2)}\n`);
    return path;
  });
}
