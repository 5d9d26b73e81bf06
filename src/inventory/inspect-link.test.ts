import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InventoryItem } from '../domain/inventory.ts';
import {
  inspectData,
  mergeStickers,
  withInspectData,
  withInspectPaintIndex,
} from './inspect-link.ts';
import { KARAMBIT_CERTIFICATE } from './test-fixtures.ts';

const LINK = 'steam://run/730//+csgo_econ_action_preview%20';
/**
 * An AK-47 Redline's preview data block (itemid 101, defindex 7, paint index 282, wear 0.2517,
 * seed 661, stickers 4759 in slot 0 and 4774 at wear 0.25 in slot 2), written for these tests
 * with @csfloat/cs2-inspect-serializer's generateHex: plain (zero byte first, checksum last),
 * and the same bytes XOR-masked with 0x3C.
 */
const AK_PLAIN =
  '0010651807209A022805300438D3BD83F403409505620A08001097251D00000000620A080210A6251D0000803E68848080800C70086B33B135';
const AK_MASKED =
  '3C2C59243B1CA63E14390C3804EF81BFC83F7CA9395E36343C2CAB19213C3C3C3C5E36343E2C9A19213C3CBC0254B8BCBCBC304C34570F8D09';

const item = (extra: Partial<InventoryItem>): InventoryItem => ({
  assetId: '1',
  classId: '1',
  instanceId: '0',
  marketHashName: 'AK-47 | Redline (Field-Tested)',
  marketName: 'AK-47 | Redline (Field-Tested)',
  tradable: true,
  marketable: true,
  amount: 1,
  canonicalItemId: null,
  ...extra,
});

describe('inspect links that embed the item', () => {
  test('a masked certificate gives float, seed and paint index', () => {
    assert.deepEqual(inspectData(LINK + KARAMBIT_CERTIFICATE), {
      floatValue: Math.fround(0.0089),
      paintSeed: 412,
      paintIndex: 419,
      stickers: [],
    });
  });

  test('plain and masked forms of one block decode alike, stickers by slot', () => {
    const expected = {
      floatValue: Math.fround(0.2517),
      paintSeed: 661,
      paintIndex: 282,
      stickers: [
        { slot: 0, stickerId: 4759, wear: 0 },
        { slot: 2, stickerId: 4774, wear: 0.25 },
      ],
    };
    assert.deepEqual(inspectData(LINK + AK_PLAIN), expected);
    assert.deepEqual(inspectData(LINK + AK_MASKED), expected);
    assert.deepEqual(
      inspectData(`steam://rungame/730/76561202255233023/+csgo_econ_action_preview ${AK_PLAIN}`),
      expected,
    );
  });

  test('links without a payload, or with a broken one, give nothing', () => {
    const old =
      'steam://rungame/730/76561202255233023/+csgo_econ_action_preview%20S76561198000000001A101D1234567890';
    assert.equal(inspectData(old), null);
    assert.equal(inspectData(`${LINK}%propid:6%`), null);
    assert.equal(inspectData(`${LINK}00ZZ`), null);
    const badChecksum = AK_PLAIN.slice(0, -2) + (AK_PLAIN.endsWith('00') ? '01' : '00');
    assert.equal(inspectData(LINK + badChecksum), null);
    assert.equal(inspectData(`${LINK}${AK_PLAIN.slice(0, 9)}`), null, 'odd length');
  });

  test("sticker details join Steam's named stickers only when both list as many", () => {
    const named = [
      { slot: 0, name: 'Crown (Foil)' },
      { slot: 1, name: 'Howling Dawn' },
    ];
    const decoded = inspectData(LINK + AK_PLAIN)!.stickers;
    assert.deepEqual(mergeStickers(named, decoded), [
      { slot: 0, name: 'Crown (Foil)', stickerId: 4759, wear: 0 },
      { slot: 2, name: 'Howling Dawn', stickerId: 4774, wear: 0.25 },
    ]);
    assert.deepEqual(mergeStickers(named.slice(0, 1), decoded), named.slice(0, 1));
    assert.equal(mergeStickers(undefined, decoded), undefined, 'no names, no stickers');
  });

  test('what the asset properties gave stays; the link fills the rest', () => {
    const filled = withInspectData(item({ inspectLink: LINK + AK_MASKED, floatValue: 0.25 }));
    assert.equal(filled.floatValue, 0.25);
    assert.equal(filled.paintSeed, 661);
    assert.equal(filled.paintIndex, 282);
    const plain = withInspectPaintIndex(item({ inspectLink: LINK + AK_MASKED }));
    assert.equal(plain.paintIndex, 282);
    assert.equal(plain.floatValue, undefined);
    const none = item({});
    assert.equal(withInspectData(none), none);
  });
});
