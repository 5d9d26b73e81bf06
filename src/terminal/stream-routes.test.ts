import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildHarness } from '../http/test-support.ts';
import { streamHubOf } from '../http/app.ts';
import { openSse } from '../http/stream/sse-test-client.ts';
import { terminalRoutes } from './index.ts';
import { TERMINAL_STREAMS_PER_IP } from './stream-routes.ts';

const REDLINE = encodeURIComponent('AK-47 | Redline (Field-Tested)');
const apps: { close(): Promise<void> }[] = [];
after(async () => {
  for (const app of apps) await app.close();
});

async function served() {
  const harness = await buildHarness({ streamTickMs: 0, docs: false }, [terminalRoutes]);
  const base = await harness.app.listen({ port: 0, host: '127.0.0.1' });
  apps.push(harness.app);
  return { ...harness, base, hub: streamHubOf(harness.app)! };
}

test('the terminal item stream is keyless: a snapshot, then the item’s quote and nbbo events', async () => {
  const harness = await served();
  harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1500]);
  const client = await openSse(`${harness.base}/terminal/api/stream?game=cs2&name=${REDLINE}`);
  assert.equal(client.status, 200);
  const [snapshot] = await client.waitFor(1);
  assert.equal(snapshot!.event, 'snapshot');
  harness.quote('ask', 'cs2-redline-ft', 'skinport', [1400]);
  const [, quote, nbbo] = await client.waitFor(3);
  assert.deepEqual([quote!.event, nbbo!.event], ['quote', 'nbbo']);
  client.close();
  await client.ended;
});

test('an unknown item is a 404, a missing name a 400; an IP holds at most 4 streams', async () => {
  const harness = await served();
  const unknown = await openSse(`${harness.base}/terminal/api/stream?game=cs2&name=Nope`);
  await unknown.ended;
  assert.equal(unknown.status, 404);
  const nameless = await openSse(`${harness.base}/terminal/api/stream?game=cs2`);
  await nameless.ended;
  assert.equal(nameless.status, 400);
  const board = `${harness.base}/terminal/api/stream?game=cs2&board=true`;
  const held = [];
  for (let index = 0; index < TERMINAL_STREAMS_PER_IP; index += 1) held.push(await openSse(board));
  assert.ok(held.every((client) => client.status === 200));
  const refused = await openSse(board);
  await refused.ended;
  assert.equal(refused.status, 429);
  for (const client of held) client.close();
  await Promise.all(held.map((client) => client.ended));
});
