/**
 * Live ingest throughput at full-catalog size: a Skinport `/v1/items` body and a White.market
 * export body with one row for every CS2 catalog name, served Brotli-compressed by a loopback
 * stand-in, through the whole live path: HTTP fetch and decompression, JSON decode, the
 * connector's parser, normalise (catalog resolution, ECB conversion) and the SQLite writeBatch
 * with rollups. The baseline in the same run is JSON.parse of the same body alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalogs } from '../src/catalog/index.ts';
import { systemClock } from '../src/domain/clock.ts';
import { parseEcbDaily } from '../src/markets/ecb/fx-ecb.ts';
import { normalise } from '../src/ingest/normalise.ts';
import { ECB_SAMPLE } from '../src/markets/ecb/test-ecb.ts';
import type { Connector } from '../src/markets/connector.ts';
import { createMarketHttp } from '../src/markets/http/http-client.ts';
import { ConnectorAdapter } from '../src/markets/live/connector-adapter.ts';
import { connector as skinport } from '../src/markets/skinport/connector.ts';
import { startLoopback } from '../src/markets/testing/loopback.ts';
import { connector as whitemarket } from '../src/markets/whitemarket/connector.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';

type Names = readonly string[];

function skinportBody(names: Names): unknown[] {
  return names.map((name, index) => ({
    market_hash_name: name,
    currency: 'EUR',
    suggested_price: 1 + (index % 500) / 10,
    item_page: `https://skinport.com/item/${index}`,
    market_page: `https://skinport.com/market/730?i=${index}`,
    min_price: 0.5 + (index % 997) / 7,
    max_price: 900,
    mean_price: 12.5,
    median_price: 11.25,
    quantity: 1 + (index % 40),
    created_at: 1_535_988_253,
    updated_at: 1_795_000_000,
  }));
}

function whitemarketBody(names: Names): unknown[] {
  return names.map((name, index) => ({
    market_hash_name: name,
    price: (0.5 + (index % 997) / 7).toFixed(2),
    market_product_link: `https://white.market/item/${index}`,
    market_product_count: 1 + (index % 40),
    cheapest_asset_id: String(30_000_000_000 + index),
    cheapest_float: index % 3 === 0 ? null : ((index % 1000) / 1000).toFixed(6),
    paint_index: index % 3 === 0 ? null : 282,
    paint_seed: index % 3 === 0 ? null : index % 1000,
    inspect_link: null,
  }));
}

async function measure(label: string, connector: Connector, body: unknown[], names: Names) {
  const catalogs = loadCatalogs();
  const fx = parseEcbDaily(ECB_SAMPLE);
  const server = await startLoopback();
  server.route('*', () => ({ kind: 'json', body }));
  const http = createMarketHttp({ clock: systemClock });
  const dir = mkdtempSync(join(tmpdir(), 'bench-live-'));
  const store = createSqlitePriceStore({ path: join(dir, 'prices.db') });
  await store.init();
  const text = JSON.stringify(body);
  const timed = <T>(run: () => T): [T, number] => {
    const start = performance.now();
    const value = run();
    return [value, performance.now() - start];
  };
  const [decoded, decodeMs] = timed(() => JSON.parse(text) as unknown);
  const kind = connector.requests({
    game: 'cs2',
    now: Date.now(),
    credentials: {},
    priorities: [],
    memory: new Map(),
  })[0]!;
  const [page, parseMs] = timed(() =>
    connector.parsers[kind.kind]!(decoded, { game: 'cs2', now: Date.now(), request: kind }),
  );
  const context = {
    catalogs,
    fx,
    now: Date.now(),
    expected: { [connector.info.id]: connector.info },
  };
  const [{ batch, rejected }, normaliseMs] = timed(() => normalise(page.observations, context));
  const observations = page.observations.length;
  const perSecond = (ms: number) => Math.round((observations / ms) * 1000);
  try {
    const writeStart = performance.now();
    await store.writeBatch(batch);
    await store.flushRollups();
    const writeMs = performance.now() - writeStart;
    const adapter = new ConnectorAdapter({
      connector,
      channel: http.channel(connector.info.id, { limits: [{ requests: 1000, windowMs: 60_000 }] }),
      baseUrl: server.url,
      cadenceMs: connector.info.cadenceMs,
      credentials: {},
      clock: systemClock,
    });
    const started = performance.now();
    const parsed = adapter.parse(await adapter.fetchRaw({ game: 'cs2', now: Date.now() }));
    const again = normalise(parsed.observations, { ...context, now: Date.now() + 1000 });
    await store.writeBatch(again.batch);
    await store.flushRollups();
    const wholeMs = performance.now() - started;
    console.log(
      `${label}: ${names.length} names, ${(text.length / 1e6).toFixed(1)} MB JSON, ${observations} observations (${rejected.length} rejected)\n` +
        `  parse + normalise: ${perSecond(parseMs + normaliseMs)} observations/s (parse ${parseMs.toFixed(0)} ms, normalise ${normaliseMs.toFixed(0)} ms); ` +
        `baseline JSON.parse of the body: ${perSecond(decodeMs)} observations/s (${decodeMs.toFixed(0)} ms); ratio ${(decodeMs / (parseMs + normaliseMs)).toFixed(2)}\n` +
        `  writeBatch with rollups + fold: ${perSecond(writeMs)} observations/s (${writeMs.toFixed(0)} ms)\n` +
        `  whole live path (loopback HTTP with Brotli, decode, parse, normalise, store): ${perSecond(wholeMs)} observations/s (${wholeMs.toFixed(0)} ms)`,
    );
  } finally {
    await store.close();
    await http.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchLiveIngest(): Promise<void> {
  const names = loadCatalogs().cs2.items.map((item) => item.marketHashName);
  await measure('Skinport /v1/items, full CS2 catalog', skinport, skinportBody(names), names);
  await measure(
    'White.market export, full CS2 catalog (asks + cheapest listings)',
    whitemarket,
    whitemarketBody(names),
    names,
  );
}
