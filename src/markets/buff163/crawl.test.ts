/**
 * The rolling catalog crawl over many polls: each poll reads at most its slice of pages, never
 * the same page twice, goes on where the last one stopped, wraps after the last page, and
 * every poll ends; an expired session stops a poll after its first request.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConnectorRequest } from '../connector.ts';
import { connector } from './connector.ts';
import { PAGES_PER_POLL } from './plan.ts';
import { steamName } from './shared.ts';

const SESSION = { PRICING_BUFF163_SESSION: 'test-session' };

function goodsBody(page: number, totalPage: number): unknown {
  const items = [{ id: 1000 + page, market_hash_name: `Item ${page}`, sell_num: 0, buy_num: 0 }];
  return { code: 'OK', data: { page_num: page, total_page: totalPage, items } };
}

/** Runs polls like the adapter does (queue, follow-ups, memory), answering goods pages only. */
function crawl(totalPage: number, polls: number, answer = goodsBody): number[][] {
  const memory = new Map<string, string>();
  const seen: number[][] = [];
  for (let poll = 0; poll < polls; poll += 1) {
    const ctx = { game: 'cs2' as const, now: poll, credentials: SESSION, priorities: [], memory };
    const queue: ConnectorRequest[] = connector.requests(ctx);
    const pages: number[] = [];
    for (let sent = 0; queue.length > 0 && sent < connector.maxRequestsPerPoll!; sent += 1) {
      const request = queue.shift()!;
      const page = Number(request.query?.page_num);
      pages.push(page);
      const body = answer(page, totalPage);
      const result = connector.parsers.goods!(body, { game: 'cs2', now: poll, request });
      queue.push(...(result.next ?? []));
      for (const [key, value] of Object.entries(result.remember ?? {})) memory.set(key, value);
    }
    seen.push(pages);
  }
  return seen;
}

describe('buff163 catalog crawl', () => {
  test('slices of the catalog in turn, wrapping after the last page', () => {
    const polls = crawl(20, 4);
    assert.deepEqual(polls, [
      [1, 2, 3, 4, 5, 6, 7, 8],
      [9, 10, 11, 12, 13, 14, 15, 16],
      [17, 18, 19, 20, 1, 2, 3, 4],
      [5, 6, 7, 8, 9, 10, 11, 12],
    ]);
  });

  test('a catalog smaller than a slice is read once per poll', () => {
    assert.deepEqual(crawl(3, 2), [
      [1, 2, 3],
      [1, 2, 3],
    ]);
  });

  test('every poll ends within its slice, whatever total_page says', () => {
    const lying = (page: number) => goodsBody(page, page % 2 === 0 ? 1 : 10_000);
    for (const pages of crawl(0, 5, lying)) {
      assert.ok(pages.length <= PAGES_PER_POLL, JSON.stringify(pages));
      assert.equal(new Set(pages).size, pages.length, JSON.stringify(pages));
    }
  });

  test('an expired session costs one request and keeps the cursor', () => {
    const expired = () => ({ code: 'Login Required', error: 'Please log in first' });
    assert.deepEqual(crawl(20, 2, expired), [[1], [1]]);
  });

  test('phase-spliced catalog names map back to the Steam name', () => {
    assert.equal(
      steamName('★ Karambit | Doppler Black Pearl (Factory New)'),
      '★ Karambit | Doppler (Factory New)',
    );
    assert.equal(
      steamName('Glock-18 | Gamma Doppler Emerald (Minimal Wear)'),
      'Glock-18 | Gamma Doppler (Minimal Wear)',
    );
    assert.equal(steamName('AK-47 | Redline (Field-Tested)'), 'AK-47 | Redline (Field-Tested)');
  });
});
