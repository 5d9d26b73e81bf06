import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { buildApp } from './app.ts';
import { auth, buildHarness, KEYS } from './test-support.ts';

interface Parameter {
  name: string;
  in: 'query' | 'path';
  schema: { type?: string | string[]; minimum?: number; maximum?: number };
}

type Operations = Record<string, { get?: { parameters?: Parameter[] } }>;

const ITEM = encodeURIComponent('AK-47 | Redline (Field-Tested)');
/** Path parameters that are not item names take a valid value of their own. */
const PATH_VALUES: Record<string, string> = { steamId: '76561198000000001' };
const NOT_PLAIN = [
  '0x10',
  '0b11',
  '1e2',
  '1.0',
  '2.5',
  '+5',
  ' 5',
  '5 ',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e400',
  '',
  '٣',
  '1_000',
];

async function documented() {
  const harness = await buildHarness();
  await harness.app.ready();
  const paths = (harness.app.swagger() as { paths: Operations }).paths;
  const integers: { path: string; parameter: Parameter }[] = [];
  for (const [path, operations] of Object.entries(paths)) {
    for (const parameter of operations.get?.parameters ?? []) {
      if (parameter.schema.type === 'integer') integers.push({ path, parameter });
    }
  }
  return { ...harness, integers };
}

/** A request to `path` with `name=value`, everything else valid. */
function url(path: string, parameter: Parameter, value: string): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === parameter.name ? encodeURIComponent(value) : (PATH_VALUES[name] ?? ITEM),
  );
  const own = parameter.in === 'query' ? `&${parameter.name}=${encodeURIComponent(value)}` : '';
  return `${filled}?game=cs2&market_hash_name=${ITEM}${own}`;
}

describe('integer parameters take plain decimal integers only, on every route', () => {
  test('the routes declare integer parameters, each with a minimum and a maximum', async () => {
    const { integers } = await documented();
    const names = new Set(integers.map(({ parameter }) => parameter.name));
    for (const name of ['page', 'perPage', 'depth', 'limit', 'candidateLimit', 'windowHours']) {
      assert.ok(names.has(name), name);
    }
    for (const { path, parameter } of integers) {
      assert.equal(typeof parameter.schema.minimum, 'number', `${path} ${parameter.name}`);
      assert.equal(typeof parameter.schema.maximum, 'number', `${path} ${parameter.name}`);
    }
  });

  test('hex, exponents, fractions, signs, spaces, Infinity, NaN and empty are 400', async () => {
    const { app, integers } = await documented();
    for (const { path, parameter } of integers) {
      for (const value of NOT_PLAIN) {
        const target = url(path, parameter, value);
        const response = await app.inject({ url: target, headers: auth(KEYS.enterprise) });
        assert.equal(response.statusCode, 400, `${target} → ${response.body}`);
        assert.deepEqual(
          response.json(),
          {
            statusCode: 400,
            message: [`${parameter.name} must be an integer number`],
            error: 'Bad Request',
            code: 'INVALID_PARAMETER',
          },
          target,
        );
      }
    }
  });

  test('the bounds hold, however large the number', async () => {
    const { app, integers } = await documented();
    for (const { path, parameter } of integers) {
      const { minimum, maximum } = parameter.schema as { minimum: number; maximum: number };
      const cases: [string, string][] = [
        [String(maximum + 1), `${parameter.name} must not exceed ${maximum}`],
        [`${maximum}000000000000000000000000`, `${parameter.name} must not exceed ${maximum}`],
        [String(minimum - 1), `${parameter.name} must not be less than ${minimum}`],
        [
          `-${maximum}000000000000000000000000`,
          `${parameter.name} must not be less than ${minimum}`,
        ],
      ];
      for (const [value, sentence] of cases) {
        const target = url(path, parameter, value);
        const response = await app.inject({ url: target, headers: auth(KEYS.enterprise) });
        assert.equal(response.statusCode, 400, target);
        assert.deepEqual(response.json().message, [sentence], target);
      }
      for (const value of [String(minimum), String(maximum), `0${minimum}`]) {
        const target = url(path, parameter, value);
        const response = await app.inject({ url: target, headers: auth(KEYS.enterprise) });
        const messages = response.statusCode === 400 ? response.json().message : [];
        assert.ok(
          !messages.some((message: string) => message.startsWith(parameter.name)),
          `${target} → ${response.body}`,
        );
      }
    }
  });

  test('a value accepted is passed to the handler as a number', async () => {
    const { app, quote } = await buildHarness();
    quote('ask', 'cs2-redline-ft', 'skinport', [1500]);
    const response = await app.inject({
      url: '/v1/items?perPage=007&page=1',
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().pagination.perPage, 7);
  });

  test('one sentence per problem, all parameters at once', async () => {
    const { app } = await buildHarness();
    const response = await app.inject({
      url: '/v1/arbitrage/opportunities?limit=Infinity&candidateLimit=1e3&minSpreadBps=-1',
      headers: auth(KEYS.pro),
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json().message.sort(), [
      'candidateLimit must be an integer number',
      'limit must be an integer number',
      'minSpreadBps must not be less than 0',
    ]);
  });
});

describe('number and boolean parameters are parsed as strictly', () => {
  async function probeApp() {
    const { deps } = await buildHarness();
    const app = await buildApp({ ...deps, docs: false });
    app.get(
      '/probe/:ratio',
      {
        schema: {
          params: Type.Object({ ratio: Type.Number({ minimum: -10, maximum: 10 }) }),
          querystring: Type.Object({
            flag: Type.Boolean({ default: false }),
            share: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
          }),
        },
      },
      async (request) => request.query,
    );
    return app;
  }

  test('plain decimals and true/false pass, as numbers and booleans', async () => {
    const app = await probeApp();
    for (const [target, expected] of [
      ['/probe/1.5?flag=true&share=0.25', { flag: true, share: 0.25 }],
      ['/probe/-2?flag=false&share=1', { flag: false, share: 1 }],
      ['/probe/0', { flag: false }],
    ] as const) {
      const response = await app.inject({ url: target });
      assert.equal(response.statusCode, 200, `${target} → ${response.body}`);
      assert.deepEqual(response.json(), expected);
    }
  });

  test('anything else is a 400 naming the parameter', async () => {
    const app = await probeApp();
    const cases: [string, string][] = [
      ['/probe/Infinity', 'ratio must be a number'],
      ['/probe/1e400', 'ratio must be a number'],
      ['/probe/0x1', 'ratio must be a number'],
      ['/probe/.5', 'ratio must be a number'],
      ['/probe/5.', 'ratio must be a number'],
      ['/probe/%2B1', 'ratio must be a number'],
      ['/probe/11', 'ratio must not exceed 10'],
      ['/probe/1?flag=1', 'flag must be a boolean value'],
      ['/probe/1?flag=TRUE', 'flag must be a boolean value'],
      ['/probe/1?flag=', 'flag must be a boolean value'],
      ['/probe/1?share=NaN', 'share must be a number'],
      ['/probe/1?share=1e-1', 'share must be a number'],
      ['/probe/1?share=2', 'share must not exceed 1'],
    ];
    for (const [target, sentence] of cases) {
      const response = await app.inject({ url: target });
      assert.equal(response.statusCode, 400, `${target} → ${response.body}`);
      assert.deepEqual(response.json().message, [sentence], target);
    }
  });
});
