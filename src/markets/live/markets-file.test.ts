import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MINUTE, SECOND } from '../../domain/clock.ts';
import { MARKET_IDS } from '../../domain/markets.ts';
import { ECB_DAILY_URL } from '../ecb/fx-ecb.ts';
import { LIVE_CONNECTORS } from '../connectors.ts';
import { liveSettings, loadLiveSettings, MarketsFileError } from './markets-file.ts';

describe('markets file', () => {
  test('no file: every connector enabled with its own origin and cadence, the ECB for rates', () => {
    const settings = liveSettings(undefined);
    assert.equal(settings.markets.size, LIVE_CONNECTORS.length);
    const skinport = settings.markets.get('skinport')!;
    assert.equal(skinport.enabled, true);
    assert.equal(skinport.baseUrl, 'https://api.skinport.com');
    assert.equal(skinport.cadenceMs, 5 * MINUTE);
    assert.equal(skinport.timeoutMs, null);
    assert.equal(settings.fxUrl, ECB_DAILY_URL);
  });

  test('each field overrides only what it names', () => {
    const settings = liveSettings({
      markets: {
        skinport: { baseUrl: 'http://127.0.0.1:9001', pollSeconds: 600, timeoutSeconds: 5 },
        buff163: { enabled: false },
      },
      fx: { url: 'http://127.0.0.1:9000/rates.xml' },
    });
    assert.deepEqual(
      { ...settings.markets.get('skinport')!, connector: undefined },
      {
        connector: undefined,
        enabled: true,
        baseUrl: 'http://127.0.0.1:9001',
        cadenceMs: 600 * SECOND,
        timeoutMs: 5 * SECOND,
      },
    );
    assert.equal(settings.markets.get('buff163')!.enabled, false);
    assert.equal(settings.markets.get('csfloat')!.enabled, true);
    assert.equal(settings.fxUrl, 'http://127.0.0.1:9000/rates.xml');
  });

  test('every problem is named at once: unknown fields, ranges, ids, simulated-only markets', () => {
    assert.throws(
      () => liveSettings({ markets: { skinport: { pollSeconds: 5, apiKey: 'x' } }, extra: true }),
      (error: Error) =>
        error instanceof MarketsFileError &&
        /\/extra: Unexpected property/.test(error.message) &&
        /\/markets\/skinport\/apiKey: Unexpected property/.test(error.message) &&
        /pollSeconds: Expected integer to be greater or equal to 10/.test(error.message),
    );
    assert.throws(
      () => liveSettings({ markets: { skindeck: {}, 'nope-market': {} } }),
      /skindeck: has no live connector \(it is simulated only\).*nope-market: unknown market id/,
    );
    assert.throws(() => liveSettings({ markets: { skinport: { baseUrl: 'ftp://x' } } }), /baseUrl/);
  });

  test('{"enabled": false} is accepted for every market id; a market without a connector takes nothing else', () => {
    const live = new Set<string>(LIVE_CONNECTORS.map((connector) => connector.info.id));
    const allOff = liveSettings({
      markets: Object.fromEntries(MARKET_IDS.map((id) => [id, { enabled: false }])),
    });
    assert.deepEqual(
      [...allOff.markets.values()].filter((market) => market.enabled),
      [],
    );
    assert.deepEqual([...allOff.markets.keys()].sort(), [...live].sort());
    const simulated = MARKET_IDS.filter((id) => !live.has(id));
    assert.ok(simulated.length > 0);
    for (const id of simulated) {
      for (const entry of [{ enabled: true }, {}, { enabled: false, pollSeconds: 60 }]) {
        assert.throws(
          () => liveSettings({ markets: { [id]: entry } }),
          new RegExp(`/markets/${id}: has no live connector`),
          `${id} ${JSON.stringify(entry)}`,
        );
      }
    }
  });

  test('a file that cannot be read or parsed is refused with its path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'markets-file-'));
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"markets": ');
    assert.throws(() => loadLiveSettings(broken), /broken\.json: invalid JSON/);
    assert.throws(() => loadLiveSettings(join(dir, 'missing.json')), /missing\.json: cannot read/);
    assert.equal(
      loadLiveSettings(
        join(import.meta.dirname, '..', '..', '..', 'markets.example.json'),
      ).markets.get('buff163')!.enabled,
      false,
    );
  });
});
