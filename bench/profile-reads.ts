/**
 * Per-step CPU of the three latest-state reads (`node --import tsx bench/profile-reads.ts`):
 * a data dir filled by the simulator, then per read a `pricing serve --source none` on it with
 * all threads pinned to core 0 under `--cpu-prof`, autocannon on core 1 (2 s warm-up, 8 s
 * measured). The main thread's samples inside the measured window are attributed to the first
 * frame (leaf upward) that belongs to a step, and divided by the requests served.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedEnv, load, spawnServer, PRICING_BIN } from './harness.ts';
import { prepareBenchAccount } from './http-reads.ts';
import {
  LOAD_CORE,
  PINNED_PATHS,
  pinSelf,
  QUIET_SETTLE_MS,
  spawnPinned,
  waitForPrices,
} from './pinned.ts';

const FILL_MS = 20_000;
const TOP_FUNCTIONS = 12;
/** Seconds of load the profile attributes per request. */
const MEASURE_S = 8;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const STEPS: [string, (url: string, name: string) => boolean][] = [
  ['fast path', (url) => url.includes('/src/http/read-cache/fast-reads')],
  ['auth', (url) => /src\/access\/(access-service|keys|ip-allow)/.test(url)],
  ['quota', (url) => /src\/access\/(memory-rate|rate-limiter|quota|month)/.test(url)],
  ['key gate hook', (url) => url.includes('/src/http/plugins/key-gate')],
  ['response cache', (url) => url.includes('/src/http/read-cache/')],
  ['route handler', (url) => /src\/http\/(routes|params)/.test(url)],
  ['compute', (url) => /src\/(pricing|book|domain)\//.test(url)],
  ['our hooks (request id, host, metrics)', (url) => /src\/(http|metrics)\//.test(url)],
  ['serialization', (url) => url.includes('fast-json-stringify')],
  ['Fastify, router, ajv', (url) => /node_modules\/(fastify|find-my-way|ajv|@fastify)/.test(url)],
  ['node:http and the socket', (url) => url.startsWith('node:')],
  ['garbage collection', (_url, name) => name === '(garbage collector)'],
  ['idle', (_url, name) => name === '(idle)'],
];

function stepOf(node: ProfileNode, parents: Map<number, ProfileNode>): string {
  for (let at: ProfileNode | undefined = node; at; at = parents.get(at.id)) {
    const { url, functionName } = at.callFrame;
    const step = STEPS.find(([, matches]) => matches(url, functionName));
    if (step) return step[0];
  }
  return 'other, native';
}

/** µs per step over the samples taken between `fromUs` and `toUs` (the profile's clock). */
function attribute(profile: CpuProfile, fromUs: number, toUs: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, ProfileNode>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parents.set(child, node);
  const totals = new Map<string, number>();
  const leaves = new Map<string, number>();
  let at = profile.startTime;
  for (let index = 0; index < profile.samples.length; index += 1) {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (at < fromUs || at > toUs) continue;
    const node = byId.get(profile.samples[index]!)!;
    const step = stepOf(node, parents);
    totals.set(step, (totals.get(step) ?? 0) + delta);
    const { functionName, url } = node.callFrame;
    const leaf = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}`;
    leaves.set(leaf, (leaves.get(leaf) ?? 0) + delta);
  }
  return { totals, leaves };
}

function mainThreadProfile(dir: string): CpuProfile {
  const file = readdirSync(dir).find((name) =>
    /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name),
  );
  if (!file) throw new Error(`no main-thread profile in ${dir}`);
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** Profiles are kept (for a closer look) under a directory of their own. */
const PROFILES = mkdtempSync(join(tmpdir(), 'pricing-profiles-'));

async function profileRead(name: string, path: string, dataDir: string, key: string) {
  const profDir = join(PROFILES, name.replace(/\W+/g, '-'));
  mkdirSync(profDir);
  const args = ['--cpu-prof', '--cpu-prof-dir', profDir, PRICING_BIN, 'serve', '--port', '0'];
  const server = await spawnPinned([
    ...args,
    ...['--data', dataDir, '--source', 'none', '--backfill-days', '0', '--log-level', 'warn'],
  ]);
  const headers = { Authorization: `ApiKey ${key}` };
  let requests = 0;
  let window = [0, 0];
  try {
    await waitForPrices(`${server.url}${Object.values(PINNED_PATHS)[0]}`, key);
    await new Promise((resolve) => setTimeout(resolve, QUIET_SETTLE_MS));
    await load(`${server.url}${path}`, { seconds: 2, headers });
    const from = nowUs();
    const measured = await load(`${server.url}${path}`, { seconds: MEASURE_S, headers });
    requests = measured.requestsPerSecond * MEASURE_S;
    window = [from, nowUs()];
  } finally {
    await server.stop();
  }
  const { totals, leaves } = attribute(mainThreadProfile(profDir), window[0]!, window[1]!);
  console.log(`\n${name}: ${requests} requests in the window (profile in ${profDir})`);
  let busy = 0;
  for (const [step, us] of [...totals].sort((a, b) => b[1] - a[1])) {
    if (step !== 'idle') busy += us;
    console.log(`  ${step}: ${(us / requests).toFixed(1)} µs/request`);
  }
  console.log(`  busy (all but idle): ${(busy / requests).toFixed(1)} µs/request`);
  const top = [...leaves].sort((a, b) => b[1] - a[1]).slice(0, TOP_FUNCTIONS);
  console.log(
    `  top functions (self): ${top.map(([f, us]) => `${f} ${(us / requests).toFixed(1)}`).join('; ')}`,
  );
}

async function main(): Promise<void> {
  pinSelf(LOAD_CORE);
  const dataDir = mkdtempSync(join(tmpdir(), 'pricing-profile-'));
  try {
    const key = prepareBenchAccount(dataDir);
    const fill = await spawnServer(
      [
        PRICING_BIN,
        'serve',
        '--port',
        '0',
        '--data',
        dataDir,
        '--source',
        'sim',
        '--backfill-days',
        '0',
      ],
      240_000,
      embeddedEnv(),
    );
    try {
      await waitForPrices(`${fill.url}${Object.values(PINNED_PATHS)[0]}`, key);
      await new Promise((resolve) => setTimeout(resolve, FILL_MS));
    } finally {
      await fill.stop();
    }
    for (const [name, path] of Object.entries(PINNED_PATHS))
      await profileRead(name, path, dataDir, key);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
