import { describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Game } from '../domain/games.ts';
import { GAME_READS_POLL_MS, PolledGameReads } from './game-reads.ts';

/** The switch as the store holds it; `failing` makes reads reject. */
function switchStore() {
  const state = { off: [] as Game[], failing: false, reads: 0 };
  const store = {
    disabledGames: async () => {
      state.reads += 1;
      if (state.failing) throw new Error('database is locked');
      return [...state.off];
    },
  };
  return { state, store };
}

describe('the game read switch on a running server', () => {
  test('a change in the store shows at the next poll, 250 ms apart (well within a second)', async () => {
    const { state, store } = switchStore();
    const reads = new PolledGameReads(store);
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      reads.start();
      state.off = ['rust'];
      mock.timers.tick(GAME_READS_POLL_MS - 1);
      await nextTurn();
      assert.equal(reads.disabled('rust'), false, 'not before the poll');
      mock.timers.tick(1);
      await nextTurn();
      assert.equal(reads.disabled('rust'), true);
      assert.equal(reads.disabled('cs2'), false);
      state.off = [];
      mock.timers.tick(GAME_READS_POLL_MS);
      await nextTurn();
      assert.equal(reads.disabled('rust'), false);
      assert.ok(GAME_READS_POLL_MS * 4 <= 1_000);
    } finally {
      reads.stop();
      mock.timers.reset();
    }
  });

  test('a failed read keeps the last known set and is reported; stop ends the polling', async () => {
    const { state, store } = switchStore();
    const reads = new PolledGameReads(store);
    const errors: unknown[] = [];
    state.off = ['cs2'];
    await reads.refreshNow();
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      reads.start(GAME_READS_POLL_MS, (error) => errors.push(error));
      state.failing = true;
      mock.timers.tick(GAME_READS_POLL_MS);
      await nextTurn();
      assert.equal(errors.length, 1);
      assert.equal(reads.disabled('cs2'), true);
      reads.stop();
      const readsAtStop = state.reads;
      mock.timers.tick(GAME_READS_POLL_MS * 4);
      await nextTurn();
      assert.equal(state.reads, readsAtStop);
    } finally {
      reads.stop();
      mock.timers.reset();
    }
  });
});
