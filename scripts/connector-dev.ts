// Development aids for connector authors, all against the connector in src/markets/<market>/:
//   check <market>            run its fixtures through the shared assertions
//   fill <market> <file.json> fill a fixture's `expected` from the parser (check every value!)
//   try <market>              one poll per game against a loopback stand-in serving its fixtures
// Usage: node --import tsx scripts/connector-dev.ts <command> <market> [file]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogs } from '../src/catalog/index.ts';
import { systemClock } from '../src/domain/clock.ts';
import { resolveItem } from '../src/catalog/resolve-item.ts';
import type { Connector } from '../src/markets/connector.ts';
import { createMarketHttp } from '../src/markets/http/http-client.ts';
import { ConnectorAdapter, type PollBody } from '../src/markets/live/connector-adapter.ts';
import { assertPlanFixture, assertResponseFixture } from '../src/markets/testing/check-fixtures.ts';
import { isPlanFixture, loadFixtures, MARKETS_DIR } from '../src/markets/testing/fixtures.ts';
import { startStandIn } from '../src/markets/testing/stand-in.ts';

const [command, market, file] = process.argv.slice(2);
if (!command || !market) throw new Error('usage: connector-dev.ts check|fill|try <market> [file]');
const { connector } = (await import(join(MARKETS_DIR, market, 'connector.ts'))) as {
  connector: Connector;
};

function check(): void {
  const catalogs = loadCatalogs();
  let failed = 0;
  for (const fixture of loadFixtures(market!)) {
    try {
      if (isPlanFixture(fixture)) assertPlanFixture(connector, fixture);
      else assertResponseFixture(connector, fixture, catalogs);
      console.log(`ok   ${fixture.file}`);
    } catch (error) {
      failed += 1;
      console.log(`FAIL ${fixture.file}\n${(error as Error).message}`);
    }
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

function fill(): void {
  const path = join(MARKETS_DIR, market!, 'fixtures', file!);
  const fixture = JSON.parse(readFileSync(path, 'utf8'));
  if (fixture.plan) {
    fixture.expected = {
      requests: connector.requests({
        game: fixture.plan.game,
        now: Date.parse(fixture.plan.now),
        credentials: fixture.plan.credentials ?? {},
        priorities: fixture.plan.priorities ?? [],
        memory: new Map(Object.entries(fixture.plan.memory ?? {})),
      }),
    };
  } else {
    const result = connector.parsers[fixture.request.kind]!(fixture.response.body, {
      game: fixture.request.game,
      now: Date.parse(fixture.now),
      request: fixture.request,
    });
    const catalog = loadCatalogs()[fixture.request.game as 'cs2' | 'rust'];
    const names = result.observations.map((observation) => observation.item);
    const unknownItems = [...new Set(names.filter((name) => !resolveItem(catalog, name)))].sort();
    fixture.expected = {
      observations: result.observations,
      rejected: result.rejected.map((r) => ({ reason: r.reason, detail: r.detail })),
      ...(result.next?.length ? { next: result.next } : {}),
      ...(result.remember ? { remember: result.remember } : {}),
      ...(result.failure ? { failure: result.failure } : {}),
      ...(unknownItems.length ? { unknownItems } : {}),
    };
  }
  writeFileSync(path, `${JSON.stringify(fixture, null, 2)}\n`);
  console.log(JSON.stringify(fixture.expected, null, 2));
}

async function tryPoll(): Promise<void> {
  const standIn = await startStandIn(market!);
  const http = createMarketHttp({ clock: systemClock });
  const credentials = Object.fromEntries(
    connector.info.credentials.map((c) => [c.env, process.env[c.env] ?? 'test-credential']),
  );
  const adapter = new ConnectorAdapter({
    connector,
    channel: http.channel(market!, { limits: connector.info.limits }),
    baseUrl: standIn.url,
    cadenceMs: connector.info.cadenceMs,
    credentials,
    clock: systemClock,
    priorities: () => [],
  });
  try {
    for (const game of connector.info.games) {
      const body = (await adapter.fetchRaw({ game, now: Date.now() })) as PollBody;
      const parsed = adapter.parse(body);
      console.log(
        `${game}: ${parsed.observations.length} observations, ${parsed.rejected.length} rejected`,
      );
      if (parsed.partial)
        console.log(`  partial: ${parsed.partial.kind}: ${parsed.partial.detail}`);
    }
    for (const request of standIn.loopback.received)
      console.log(`  ${request.method} ${request.url.pathname}${request.url.search}`);
  } finally {
    await http.close();
    await standIn.close();
  }
}

if (command === 'check') check();
else if (command === 'fill') fill();
else if (command === 'try') await tryPoll();
else throw new Error(`unknown command ${command}`);
