import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Book } from '../../book/book.ts';
import { manualClock, SECOND } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import { DEFAULT_FEE_MODEL } from '../../markets/fees.ts';
import { side } from '../../pricing/snapshot-fixtures.ts';
import { AlertEngine } from './alert-engine.ts';
import { sampleAlert } from './alert-store-contract.ts';
import type { AlertRecord } from './alert-store.ts';
import { createSqliteAlertStore } from './sqlite-alert-store.ts';

const ITEM = 'cs2:ak-47-redline-field-tested';

async function setup(alerts: AlertRecord[]) {
  const clock = manualClock('2026-11-01T00:00:00Z');
  const book = new Book();
  const store = createSqliteAlertStore({ path: ':memory:' });
  await store.init();
  for (const alert of alerts) await store.createAlert(alert);
  const engine = new AlertEngine({ store, book, clock, feeModel: DEFAULT_FEE_MODEL });
  await engine.start();
  const ask = async (market: MarketId, price: number, itemId = ITEM) => {
    book.apply({
      sides: [side('ask', { market, prices: [price], fetchedAt: clock.now(), itemId })],
      sales: [],
      listings: [],
    });
    await engine.settled();
  };
  const bodies = async (id: string) =>
    (await store.listDeliveries(id, 100)).reverse().map((d) => JSON.parse(d.body));
  return { clock, store, engine, ask, bodies };
}

describe('AlertEngine', () => {
  test('an ask crossing below the threshold stores one delivery with the nbbo', async () => {
    const { clock, ask, bodies, store } = await setup([sampleAlert('alt_1')]);
    await ask('csfloat', 1600);
    await ask('csfloat', 1450);
    clock.advance(SECOND);
    await ask('csfloat', 1440);
    const [body, ...rest] = await bodies('alt_1');
    assert.equal(rest.length, 0);
    assert.equal(body.alertId, 'alt_1');
    assert.equal(body.type, 'alert.fired');
    assert.equal(body.firedAt, '2026-11-01T00:00:00.000Z');
    assert.deepEqual(body.condition, { type: 'ask_below', value: 1500 });
    assert.equal(body.canonicalItemId, ITEM);
    assert.equal(body.nbbo.bestAsk.price, 1450);
    assert.match(body.id, /^evt_[0-9a-f]{24}$/);
    assert.equal((await store.getAlert('alt_1'))?.memory.armed, false);
  });

  test('only the alert’s markets count, and other items are ignored', async () => {
    const { ask, bodies } = await setup([sampleAlert('alt_1')]);
    await ask('dmarket', 1000);
    await ask('csfloat', 1000, 'cs2:other-item');
    assert.deepEqual(await bodies('alt_1'), []);
    await ask('buff163', 1499);
    assert.equal((await bodies('alt_1')).length, 1);
  });

  test('move_bps fires on the move; its reference survives a restart', async () => {
    const alert = { ...sampleAlert('alt_1'), condition: { type: 'move_bps' as const, value: 100 } };
    const { ask, bodies, engine, store, clock } = await setup([alert]);
    await ask('csfloat', 10_000);
    await ask('csfloat', 10_100);
    assert.equal((await bodies('alt_1')).length, 1);
    engine.stop();
    const again = new AlertEngine({
      store,
      book: new Book(),
      clock,
      feeModel: DEFAULT_FEE_MODEL,
    });
    await again.start();
    assert.equal((await store.getAlert('alt_1'))?.memory.referenceAsk, 10_100);
    again.stop();
  });

  test('of two processes seeing the same change, one stores the firing', async () => {
    const { store, clock } = await setup([sampleAlert('alt_1')]);
    const book = new Book();
    const engines = [0, 1].map(
      () => new AlertEngine({ store, book, clock, feeModel: DEFAULT_FEE_MODEL }),
    );
    for (const engine of engines) await engine.start();
    book.apply({
      sides: [
        side('ask', { market: 'csfloat', prices: [1000], fetchedAt: clock.now(), itemId: ITEM }),
      ],
      sales: [],
      listings: [],
    });
    await Promise.all(engines.map((engine) => engine.settled()));
    assert.equal((await store.listDeliveries('alt_1', 10)).length, 1);
  });

  test('refresh takes alerts created and deleted by another process', async () => {
    const { ask, bodies, store, engine } = await setup([sampleAlert('alt_1')]);
    await store.createAlert(sampleAlert('alt_2'));
    await store.deleteAlert('alt_1');
    await engine.refresh();
    await ask('csfloat', 1000);
    assert.equal((await bodies('alt_2')).length, 1);
    assert.deepEqual(await bodies('alt_1'), []);
  });
});
