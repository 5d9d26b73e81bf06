/**
 * `npm run bench -- schema`: the item schema over the full catalogs. Prints the first start
 * (every item versioned and written) and a restart (versions read back, nothing written), the
 * snapshot build time and size (raw and gzip), and `/v1/schema` served from the pre-built gzip
 * bytes through the whole key-gated pipeline against a bare node:http server sending the same
 * bytes (the floor), in the same run; plus the 304 revalidation and one change-feed page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Book } from '../src/book/book.ts';
import { loadCatalogs, loadCs2Registries } from '../src/catalog/index.ts';
import { systemClock } from '../src/domain/clock.ts';
import { unlimitedApp } from './unlimited-app.ts';
import { cs2SchemaRegistries, EMPTY_REGISTRIES } from '../src/schema/registries.ts';
import { SchemaService } from '../src/schema/schema-service.ts';
import { prepareSnapshot, snapshotBody } from '../src/schema/snapshot.ts';
import { createSqliteSchemaStore } from '../src/schema/sqlite-schema-store.ts';
import { describeLoad, load } from './harness.ts';

const KEY = 'sk_bench_schema';
const CONNECTIONS = 10;
const SECONDS = 6;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

function newService(path: string, catalogs: ReturnType<typeof loadCatalogs>) {
  const store = createSqliteSchemaStore({ path, now: () => systemClock.now() });
  const service = new SchemaService({
    store,
    clock: systemClock,
    sources: {
      cs2: { items: catalogs.cs2.items, registries: cs2SchemaRegistries(loadCs2Registries()) },
      rust: { items: catalogs.rust.items, registries: EMPTY_REGISTRIES },
    },
  });
  return { store, service };
}

interface BodyLoad {
  requestsPerSecond: number;
  mbPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

/** Concurrent GETs that stream and drop the body (autocannon's JS parser caps big bodies). */
async function loadLarge(url: string, headers: Record<string, string>): Promise<BodyLoad> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let bytes = 0;
  let failures = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const request = httpGet(url, { agent, headers }, (response) => {
        if (response.statusCode !== 200) failures += 1;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => {
          latencies.push(performance.now() - started);
          resolve();
        });
      });
      request.on('error', () => {
        failures += 1;
        resolve();
      });
    });
  const worker = async () => {
    while (performance.now() < deadline) await one();
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (share: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0;
  return {
    requestsPerSecond: latencies.length / SECONDS,
    mbPerSecond: bytes / 1e6 / SECONDS,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    failures,
  };
}

function describeBody(label: string, result: BodyLoad): string {
  return (
    `${label}: ${result.requestsPerSecond.toFixed(0)} req/s (${result.mbPerSecond.toFixed(0)} MB/s), ` +
    `p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, failures ${result.failures}`
  );
}

async function listen(
  handler: Parameters<typeof createServer>[1],
): Promise<{ url: string; close(): void }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, close: () => server.close() };
}

export async function benchSchema(): Promise<void> {
  const catalogs = loadCatalogs();
  const dir = mkdtempSync(join(tmpdir(), 'bench-schema-'));
  const path = join(dir, 'prices.db');
  const first = newService(path, catalogs);
  await first.store.init();
  const [, coldMs] = await timed(() => first.service.start());
  await first.store.close();
  const warm = newService(path, catalogs);
  await warm.store.init();
  const [, warmMs] = await timed(() => warm.service.start());
  const service = warm.service;
  console.log(
    `start, ${catalogs.cs2.items.length} cs2 + ${catalogs.rust.items.length} rust items: first ${coldMs.toFixed(0)} ms ` +
      `(every item versioned and stored), restart ${warmMs.toFixed(0)} ms (versions read back, nothing written)`,
  );

  const body = await snapshotBody(service.log('cs2'), service.registries('cs2'));
  const [, stringifyMs] = await timed(async () => JSON.stringify(body));
  const [payload, buildMs] = await timed(() => prepareSnapshot(body, systemClock.now()));
  console.log(
    `cs2 snapshot: ${(payload.jsonBytes / 1e6).toFixed(1)} MB JSON, ${(payload.gzip.length / 1e6).toFixed(2)} MB gzip; ` +
      `build ${buildMs.toFixed(0)} ms (JSON.stringify ${stringifyMs.toFixed(0)} ms, the rest gzip level 6 and hash)`,
  );

  const app = await unlimitedApp(KEY, {
    clock: systemClock,
    catalogs,
    book: new Book(),
    schema: service,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const appUrl = `http://127.0.0.1:${address.port}`;
  const served = service.snapshot('cs2')!;
  const bare = await listen((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    response.end(served.gzip);
  });
  const headers = { authorization: `ApiKey ${KEY}`, 'accept-encoding': 'gzip' };
  const options = { connections: CONNECTIONS, seconds: SECONDS, headers };
  const floor = await loadLarge(`${bare.url}/`, headers);
  const schema = await loadLarge(`${appUrl}/v1/schema`, headers);
  const revalidate = await load(`${appUrl}/v1/schema`, {
    ...options,
    headers: { ...headers, 'if-none-match': served.etag },
  });
  const changes = await load(`${appUrl}/v1/schema/changes?since=0&limit=1000`, options);
  console.log(describeBody('bare node:http, the same gzip bytes (baseline)', floor));
  console.log(
    `${describeBody('GET /v1/schema, gzip, through auth + plan + quota', schema)}; ` +
      `throughput ${(schema.requestsPerSecond / floor.requestsPerSecond).toFixed(2)}× the baseline, ` +
      `p50 ${(schema.p50Ms / floor.p50Ms).toFixed(2)}×`,
  );
  console.log(describeLoad('GET /v1/schema with If-None-Match (304)', revalidate));
  console.log(describeLoad('GET /v1/schema/changes?since=0&limit=1000', changes));
  bare.close();
  await app.close();
  await warm.store.close();
  rmSync(dir, { recursive: true, force: true });
}
