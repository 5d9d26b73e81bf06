import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MARKET_IDS } from '../domain/markets.ts';
import { preparePayload } from './items-all-cache.ts';
import { historyHarness } from './routes/history-test-support.ts';
import { auth, CS2_ITEMS, KEYS, RUST_ITEMS, T0 } from './test-support.ts';
import { BulkLiquidityCache } from '../liquidity/bulk-cache.ts';
import { EMPTY_REGISTRIES } from '../schema/registries.ts';
import { SchemaService } from '../schema/schema-service.ts';
import { createSqliteSchemaStore } from '../schema/sqlite-schema-store.ts';
import { InventoryService } from '../inventory/service.ts';
import { AlertService } from '../access/alerts/alert-service.ts';
import { createSqliteAlertStore } from '../access/alerts/sqlite-alert-store.ts';
import { createSteamInventorySource } from '../inventory/steam-source.ts';
import { createSqliteInventoryStore } from '../store/sqlite/inventory-store.ts';

interface Schema {
  type?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

interface Parameter {
  name: string;
  in: 'query' | 'path';
  required?: boolean;
  schema: Schema;
}

interface Operation {
  path: string;
  parameters: Parameter[];
}

const NOT_PLAIN_NUMBERS = [
  '0x10',
  '1e2',
  '1.0',
  '+5',
  ' 5',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e400',
  '',
];
const ITEMS = [...CS2_ITEMS, ...RUST_ITEMS];
const NAMES = [...ITEMS.map((item) => item.marketHashName), ...ITEMS.map((item) => item.id)];

/** Text an attacker would try: traversal, NUL, control and format characters, long runs. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.nat({ max: 3000 }).map((length) => 'a'.repeat(length)),
);

const isoDate = fc
  .integer({ min: -400, max: 40 })
  .map((days) => new Date(T0 + days * 86_400_000).toISOString());

/** Values the route should accept for one parameter, as text before encoding. */
function validValue(parameter: Parameter): fc.Arbitrary<string> {
  const { schema, name } = parameter;
  if (schema.type === 'integer' || schema.type === 'number') {
    return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 1_000 }).map(String);
  }
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (name === 'markets') {
    return fc.subarray([...MARKET_IDS], { minLength: 1, maxLength: 3 }).map((ids) => ids.join(','));
  }
  if (name === 'from' || name === 'to') return isoDate;
  if (name.endsWith('s')) {
    return fc
      .array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 5 })
      .map((list) => list.join(','));
  }
  return fc.constantFrom(...NAMES);
}

/** Boundary and hostile values for one parameter. */
function hostileValue(parameter: Parameter): fc.Arbitrary<string> {
  const { schema, name } = parameter;
  if (schema.type === 'integer' || schema.type === 'number') {
    const min = schema.minimum ?? -1_000_000;
    const max = schema.maximum ?? 1_000_000;
    return fc.oneof(
      { arbitrary: fc.constantFrom(...NOT_PLAIN_NUMBERS), weight: 2 },
      { arbitrary: fc.constantFrom('Infinity', '-Infinity', '1e400', '-1e400'), weight: 2 },
      { arbitrary: fc.constantFrom(min, max, min - 1, max + 1).map(String), weight: 2 },
      { arbitrary: hostileText, weight: 1 },
    );
  }
  if (schema.enum) {
    return fc.oneof(
      fc.constantFrom(...schema.enum).map((value) => value.toLowerCase()),
      hostileText,
    );
  }
  const names = fc
    .array(fc.constantFrom(...NAMES, ''), { maxLength: 120 })
    .map((list) => list.join(','));
  return fc.oneof(
    ...(name.endsWith('s') ? [names] : []),
    ...(schema.maxLength ? [fc.nat({ max: schema.maxLength + 2 }).map((n) => 'x'.repeat(n))] : []),
    fc.constantFrom(
      '..',
      '../..',
      '%',
      '%00',
      '\u0000',
      '\u202e',
      '\ud800',
      ',,,',
      ' ',
      '__proto__',
    ),
    hostileText,
  );
}

/** One parameter's occurrences: mostly valid, sometimes absent, repeated or hostile. */
function occurrences(parameter: Parameter): fc.Arbitrary<string[]> {
  return fc.oneof(
    { arbitrary: validValue(parameter).map((value) => [value]), weight: 6 },
    { arbitrary: fc.constant<string[]>([]), weight: 2 },
    { arbitrary: hostileValue(parameter).map((value) => [value]), weight: 2 },
    { arbitrary: fc.array(validValue(parameter), { minLength: 2, maxLength: 3 }), weight: 1 },
  );
}

/** encodeURIComponent, with a lone surrogate sent as the invalid UTF-8 bytes of one. */
function percent(text: string): string {
  return [...text]
    .map((char) => (/[\ud800-\udfff]/.test(char) ? '%ED%A0%80' : encodeURIComponent(char)))
    .join('');
}

/** How text goes onto the wire: encoded, raw, double-encoded, or broken percent-encoding. */
const encoding = fc.constantFrom(
  (text: string) => percent(text),
  (text: string) => percent(text),
  (text: string) => percent(text),
  (text: string) => text.replace(/[^\x21-\x7e]|[#?&/]/g, (char) => percent(char)),
  (text: string) => percent(percent(text)),
  (text: string) => `${percent(text)}%E0%A4%A`,
  (text: string) => `${percent(text)}%zz`,
);

const pathNoise = fc.oneof(
  { arbitrary: fc.constant(''), weight: 8 },
  { arbitrary: fc.constantFrom('/', '//', '/..', '/%2e%2e', '/%00', '/x', '?', '?&&='), weight: 2 },
);

function requestFor(operation: Operation) {
  const query = operation.parameters.filter((parameter) => parameter.in === 'query');
  const path = operation.parameters.filter((parameter) => parameter.in === 'path');
  const pairs = fc.tuple(...query.map(occurrences));
  return fc
    .record({
      method: fc.oneof(
        { arbitrary: fc.constant('GET'), weight: 8 },
        { arbitrary: fc.constantFrom('HEAD', 'POST', 'OPTIONS'), weight: 2 },
      ),
      segments: fc.tuple(
        ...path.map((parameter) => fc.oneof(validValue(parameter), hostileValue(parameter))),
      ),
      values: pairs,
      extra: fc.array(fc.tuple(hostileText, hostileText), { maxLength: 1 }),
      encode: encoding,
      noise: pathNoise,
      key: fc.constantFrom<string | null>(
        KEYS.enterprise,
        KEYS.pro,
        KEYS.developer,
        'garbage',
        null,
      ),
    })
    .map(({ method, segments, values, extra, encode, noise, key }) => {
      let index = 0;
      const filled = operation.path.replace(/\{\w+\}/g, () => encode(segments[index++] ?? ''));
      const search = [
        ...query.flatMap((parameter, at) =>
          (values[at] ?? []).map((value) => `${parameter.name}=${encode(value)}`),
        ),
        ...extra.map(([name, value]) => `${encode(name)}=${encode(value)}`),
      ].join('&');
      const url = `${filled}${noise}${search ? `${noise.includes('?') ? '&' : '?'}${search}` : ''}`;
      return { method, url, key };
    });
}

describe('fuzzing every route from its OpenAPI description', () => {
  test('no 5xx, the error envelope on every 4xx, X-Request-ID on every answer', async () => {
    const harness = await historyHarness();
    const { app, quote, itemsAll, clock } = harness;
    quote('ask', 'cs2-redline-ft', 'skinport', [1500]);
    quote('bid', 'cs2-redline-ft', 'csfloat', [1400]);
    quote('ask', 'rust-tempered-ak', 'rusttm', [900], clock.now(), 'rust');
    itemsAll.payload = await preparePayload([], clock.now());
    const liquidityBulk = new BulkLiquidityCache({
      book: harness.book,
      catalog: harness.deps.catalogs.cs2,
      clock,
    });
    await liquidityBulk.rebuild();
    harness.deps.liquidityBulk = liquidityBulk;
    const schemaStore = createSqliteSchemaStore({ path: ':memory:', now: () => clock.now() });
    await schemaStore.init();
    const schema = new SchemaService({
      store: schemaStore,
      clock,
      sources: {
        cs2: { items: harness.deps.catalogs.cs2.items, registries: EMPTY_REGISTRIES },
        rust: { items: harness.deps.catalogs.rust.items, registries: EMPTY_REGISTRIES },
      },
    });
    await schema.start();
    harness.deps.schema = schema;
    harness.deps.inventory = new InventoryService({
      store: createSqliteInventoryStore(':memory:'),
      source: createSteamInventorySource({ origin: 'http://127.0.0.1:9', clock }),
      catalogs: harness.deps.catalogs,
      clock,
    });
    const alertStore = createSqliteAlertStore({ path: ':memory:' });
    await alertStore.init();
    harness.deps.alerts = new AlertService({
      store: alertStore,
      engine: null,
      clock,
      allowPrivate: false,
    });
    await app.ready();
    const paths = (app.swagger() as { paths: Record<string, { get?: Operation }> }).paths;
    const operations = Object.entries(paths)
      .filter(([, methods]) => methods.get)
      .map(([path, methods]) => ({ path, parameters: methods.get!.parameters ?? [] }));
    assert.ok(operations.length >= 24, `${operations.length} routes documented`);
    const requests = fc.oneof(...operations.map(requestFor));
    await fc.assert(
      fc.asyncProperty(requests, async ({ method, url, key }) => {
        clock.advance(1_000);
        const response = await app.inject({
          method: method as 'GET',
          url,
          headers: key ? auth(key) : {},
        });
        const where = `${method} ${url.slice(0, 200)} → ${response.statusCode}`;
        assert.ok(response.statusCode < 500, `${where} ${response.body.slice(0, 300)}`);
        assert.match(String(response.headers['x-request-id']), /^[A-Za-z0-9_-]{1,64}$/, where);
        if (response.statusCode < 400 || method === 'HEAD') return;
        const body = response.json();
        assert.deepEqual(Object.keys(body), ['statusCode', 'message', 'error', 'code'], where);
        assert.equal(body.statusCode, response.statusCode, where);
        if (body.code === 'INVALID_PARAMETER') {
          assert.ok(Array.isArray(body.message) && body.message.length > 0, where);
          for (const sentence of body.message) assert.equal(typeof sentence, 'string', where);
        } else {
          assert.equal(typeof body.message, 'string', where);
        }
      }),
      { numRuns: 800 },
    );
  });
});
