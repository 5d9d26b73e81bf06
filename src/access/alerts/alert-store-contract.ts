/** The behaviour every AlertStore adapter shares (run by the SQLite and PostgreSQL suites). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FRESH_MEMORY } from '../../pricing/alert-rules.ts';
import type { AlertRecord, AlertStore } from './alert-store.ts';

export function sampleAlert(id: string, accountId = 'acc_1', createdAt = 1000): AlertRecord {
  return {
    id,
    accountId,
    marketHashName: 'AK-47 | Redline (Field-Tested)',
    canonicalItemId: 'cs2:ak-47-redline-field-tested',
    condition: { type: 'ask_below', value: 1500 },
    url: 'https://hooks.example.com/price',
    markets: ['csfloat', 'buff163'],
    cooldownSeconds: 60,
    secret: `whsec_${id}`,
    createdAt,
    memory: FRESH_MEMORY,
  };
}

const FIRED = { lastFiredAt: 5000, referenceAsk: 1400, armed: false };
/** A memory that leaves last_fired_at unset, so one alert can fire many times in a test. */
const UNSET = { lastFiredAt: null, referenceAsk: 1400, armed: true };

export function alertStoreContract(name: string, open: () => AlertStore): void {
  describe(`AlertStore contract: ${name}`, () => {
    async function opened(): Promise<AlertStore> {
      const store = open();
      await store.init();
      return store;
    }

    test('alerts round-trip, per account, oldest first, and are counted', async () => {
      const store = await opened();
      await store.createAlert(sampleAlert('alt_b', 'acc_1', 2000));
      await store.createAlert(sampleAlert('alt_a', 'acc_1', 1000));
      await store.createAlert({ ...sampleAlert('alt_c', 'acc_2'), markets: null });
      assert.deepEqual(await store.getAlert('alt_a'), sampleAlert('alt_a', 'acc_1', 1000));
      assert.equal((await store.getAlert('alt_c'))?.markets, null);
      assert.equal(await store.getAlert('alt_none'), null);
      const ids = (await store.listAlerts('acc_1')).map((alert) => alert.id);
      assert.deepEqual(ids, ['alt_a', 'alt_b']);
      assert.equal(await store.countAlerts('acc_1'), 2);
      assert.equal(await store.countAlerts('acc_9'), 0);
      assert.equal((await store.allAlerts()).length, 3);
      await store.close();
    });

    test('a firing stores the memory and a pending delivery together', async () => {
      const store = await opened();
      await store.createAlert(sampleAlert('alt_1'));
      const delivery = { id: 'evt_1', alertId: 'alt_1', body: '{"id":"evt_1"}', createdAt: 5000 };
      assert.equal(await store.recordFiring('alt_1', null, FIRED, delivery), true);
      assert.deepEqual((await store.getAlert('alt_1'))?.memory, FIRED);
      const [stored] = await store.listDeliveries('alt_1', 10);
      assert.deepEqual(stored, {
        ...delivery,
        status: 'pending',
        nextAttemptAt: 5000,
        attempts: [],
      });
      const missing = { ...delivery, id: 'evt_2', alertId: 'alt_gone' };
      assert.equal(await store.recordFiring('alt_gone', null, FIRED, missing), false);
      await store.close();
    });

    test('of two firings from one memory, only the first is stored', async () => {
      const store = await opened();
      await store.createAlert(sampleAlert('alt_1'));
      const first = { id: 'evt_1', alertId: 'alt_1', body: '{}', createdAt: 5000 };
      assert.equal(await store.recordFiring('alt_1', null, FIRED, first), true);
      const second = { ...first, id: 'evt_2' };
      assert.equal(await store.recordFiring('alt_1', null, FIRED, second), false);
      const later = { ...first, id: 'evt_3', createdAt: 9000 };
      const again = { ...FIRED, lastFiredAt: 9000 };
      assert.equal(await store.recordFiring('alt_1', 5000, again, later), true);
      const ids = (await store.listDeliveries('alt_1', 10)).map((d) => d.id);
      assert.deepEqual(ids, ['evt_3', 'evt_1']);
      await store.close();
    });

    test('saveMemory stores a change that did not fire', async () => {
      const store = await opened();
      await store.createAlert(sampleAlert('alt_1'));
      const memory = { lastFiredAt: null, referenceAsk: 1234, armed: true };
      await store.saveMemory('alt_1', memory);
      assert.deepEqual((await store.getAlert('alt_1'))?.memory, memory);
      await store.close();
    });

    test('a claim leases due deliveries once until the lease ends', async () => {
      const store = await opened();
      await store.createAlert(sampleAlert('alt_1'));
      for (const [id, at] of [
        ['evt_late', 9000],
        ['evt_early', 5000],
        ['evt_mid', 6000],
      ] as const) {
        await store.recordFiring('alt_1', null, UNSET, {
          id,
          alertId: 'alt_1',
          body: '{}',
          createdAt: at,
        });
      }
      const first = await store.claimDue({ owner: 'p1', now: 7000, leaseMs: 1000, limit: 10 });
      assert.deepEqual(
        first.map((d) => [d.id, d.url, d.secret, d.attemptCount]),
        [
          ['evt_early', 'https://hooks.example.com/price', 'whsec_alt_1', 0],
          ['evt_mid', 'https://hooks.example.com/price', 'whsec_alt_1', 0],
        ],
      );
      assert.deepEqual(
        await store.claimDue({ owner: 'p2', now: 7500, leaseMs: 1000, limit: 10 }),
        [],
      );
      const again = await store.claimDue({ owner: 'p2', now: 8000, leaseMs: 1000, limit: 1 });
      assert.deepEqual(
        again.map((d) => d.id),
        ['evt_early'],
      );
      await store.close();
    });

    test('attempts are logged in order; the outcome ends the lease; a lost lease is refused', async () => {
      const store = await opened();
      await store.createAlert(sampleAlert('alt_1'));
      await store.recordFiring('alt_1', null, FIRED, {
        id: 'evt_1',
        alertId: 'alt_1',
        body: '{}',
        createdAt: 5000,
      });
      await store.claimDue({ owner: 'p1', now: 5000, leaseMs: 1000, limit: 10 });
      const failed = { at: 5000, httpStatus: 500, error: null };
      assert.equal(
        await store.recordAttempt('evt_1', 'p1', {
          attempt: failed,
          status: 'pending',
          nextAttemptAt: 6000,
        }),
        true,
      );
      assert.deepEqual(
        await store.claimDue({ owner: 'p1', now: 5999, leaseMs: 1000, limit: 9 }),
        [],
      );
      const [retry] = await store.claimDue({ owner: 'p2', now: 6000, leaseMs: 1000, limit: 9 });
      assert.equal(retry?.attemptCount, 1);
      const stale = { attempt: failed, status: 'pending' as const, nextAttemptAt: 0 };
      assert.equal(await store.recordAttempt('evt_1', 'p1', stale), false);
      const ok = { at: 6000, httpStatus: 204, error: null };
      assert.equal(
        await store.recordAttempt('evt_1', 'p2', {
          attempt: ok,
          status: 'delivered',
          nextAttemptAt: 6000,
        }),
        true,
      );
      const [delivery] = await store.listDeliveries('alt_1', 10);
      assert.equal(delivery?.status, 'delivered');
      assert.deepEqual(delivery?.attempts, [failed, ok]);
      assert.deepEqual(
        await store.claimDue({ owner: 'p3', now: 99_000, leaseMs: 1, limit: 9 }),
        [],
      );
      await store.close();
    });

    test('deliveries list newest first, limited; deleting an alert removes its deliveries', async () => {
      const store = await opened();
      await store.createAlert(sampleAlert('alt_1'));
      for (const at of [1000, 3000, 2000]) {
        const id = `evt_${at}`;
        await store.recordFiring('alt_1', null, UNSET, {
          id,
          alertId: 'alt_1',
          body: '{}',
          createdAt: at,
        });
      }
      const listed = await store.listDeliveries('alt_1', 2);
      assert.deepEqual(
        listed.map((d) => d.id),
        ['evt_3000', 'evt_2000'],
      );
      assert.equal(await store.deleteAlert('alt_1'), true);
      assert.equal(await store.deleteAlert('alt_1'), false);
      assert.deepEqual(await store.listDeliveries('alt_1', 10), []);
      assert.deepEqual(await store.claimDue({ owner: 'p', now: 9e9, leaseMs: 1, limit: 9 }), []);
      await store.close();
    });
  });
}
