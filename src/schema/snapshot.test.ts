import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { prepareSnapshot, type SchemaSnapshotBody } from './snapshot.ts';

function body(count: number): SchemaSnapshotBody {
  const items: SchemaSnapshotBody['items'] = {};
  for (let index = 0; index < count; index += 1) {
    const name = `Item "${index}" ★ | ™`;
    items[name] = {
      id: `cs2_${index}`,
      marketHashName: name,
      slug: `item-${index}`,
      category: 'skin',
      version: 7,
      wears: ['Field-Tested'],
    };
  }
  return {
    schemaVersion: 7,
    generatedAt: new Date(7).toISOString(),
    itemCount: count,
    items,
    rarities: [{ key: 'covert', name: 'Covert', tier: 6, color: '#eb4b4b' }],
    collections: { c: { name: 'C' } },
    containers: {},
  };
}

describe('snapshot bytes', () => {
  test('the sliced JSON is exactly JSON.stringify of the body, for 0, 1 and several slices', async () => {
    for (const count of [0, 1, 4_500]) {
      const prepared = await prepareSnapshot(body(count), 0);
      assert.equal(gunzipSync(prepared.gzip).toString(), JSON.stringify(body(count)));
      assert.equal(gunzipSync(prepared.gzip).length, prepared.jsonBytes);
      assert.equal(prepared.rowCount, count);
    }
  });

  test('equal content gives an equal ETag; any change a different one', async () => {
    const first = await prepareSnapshot(body(3), 1);
    const again = await prepareSnapshot(body(3), 2);
    assert.equal(again.etag, first.etag);
    const changed = body(3);
    changed.items['Item "1" ★ | ™']!.image = 'https://x/1.png';
    assert.notEqual((await prepareSnapshot(changed, 1)).etag, first.etag);
  });
});
