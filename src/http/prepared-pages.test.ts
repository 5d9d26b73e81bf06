import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { manualClock } from '../domain/clock.ts';
import { preparedText } from '../domain/prepared-payload.ts';
import { PreparedPages } from './prepared-pages.ts';

function fixture(maxBytes = 1_000_000) {
  const clock = manualClock();
  let version = 0;
  const pages = new PreparedPages({
    clock,
    version: () => version,
    minIntervalMs: 10_000,
    maxBytes,
  });
  let builds = 0;
  const build = (text: string) => async () => {
    builds += 1;
    return { ...(await preparedText(text)), rowCount: 1, builtAt: clock.now() };
  };
  return { clock, pages, build, builds: () => builds, change: () => (version += 1) };
}

describe('PreparedPages', () => {
  test('an unchanged source serves the built page whatever its age', async () => {
    const f = fixture();
    const first = await f.pages.page('a', f.build('"one"'));
    f.clock.advance(3_600_000);
    const again = await f.pages.page('a', f.build('"two"'));
    assert.equal(again.etag, first.etag);
    assert.equal(f.builds(), 1);
  });

  test('a changed source rebuilds a page at most once per interval', async () => {
    const f = fixture();
    await f.pages.page('a', f.build('"one"'));
    f.change();
    f.clock.advance(9_999);
    assert.equal(gunzipSync((await f.pages.page('a', f.build('"two"'))).gzip).toString(), '"one"');
    f.clock.advance(1);
    assert.equal(gunzipSync((await f.pages.page('a', f.build('"two"'))).gzip).toString(), '"two"');
    assert.equal(f.builds(), 2);
  });

  test('readers of a page being built share the build', async () => {
    const f = fixture();
    const [a, b] = await Promise.all([
      f.pages.page('a', f.build('"one"')),
      f.pages.page('a', f.build('"two"')),
    ]);
    assert.equal(a, b);
    assert.equal(f.builds(), 1);
  });

  test('past maxBytes the least recently read page goes first', async () => {
    const probe = await preparedText('"xxxxxxxxxx"');
    const f = fixture(2 * probe.gzip.length);
    await f.pages.page('a', f.build('"aaaaaaaaaa"'));
    await f.pages.page('b', f.build('"bbbbbbbbbb"'));
    await f.pages.page('a', f.build('"aaaaaaaaaa"'));
    await f.pages.page('c', f.build('"cccccccccc"'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(f.builds(), 3);
    await f.pages.page('a', f.build('"aaaaaaaaaa"'));
    assert.equal(f.builds(), 3);
    await f.pages.page('b', f.build('"bbbbbbbbbb"'));
    assert.equal(f.builds(), 4);
  });
});
