import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  ChangeLog,
  nextVersion,
  planChanges,
  type DesiredRecord,
  type LogEntry,
} from './change-log.ts';
import { readChanges } from './changes-feed.ts';
import { recordHash, type SchemaRecord } from './records.ts';
import { EMPTY_REGISTRIES } from './registries.ts';

function desired(
  id: string,
  image = 'a',
  source: DesiredRecord['source'] = 'catalog',
): DesiredRecord {
  const record: SchemaRecord = {
    id,
    marketHashName: `Item ${id}`,
    slug: id,
    category: 'skin',
    image,
  };
  return { record, hash: recordHash(record), source };
}

/** Syncs like the service does: plan against the log, append with the next version. */
function sync(
  log: ChangeLog,
  wanted: DesiredRecord[],
  now: number,
  removeMissing = true,
): LogEntry[] {
  const changes = planChanges(log.latest(), wanted, removeMissing, nextVersion(log.head(), now));
  log.append(changes);
  return changes;
}

describe('versions', () => {
  test('only items whose content changed get the new version', () => {
    const log = new ChangeLog();
    sync(log, [desired('a'), desired('b'), desired('c')], 1_000);
    const changed = sync(log, [desired('a'), desired('b', 'renamed.png'), desired('c')], 2_000);
    assert.deepEqual(
      changed.map((entry) => entry.id),
      ['b'],
    );
    assert.equal(log.get('a')!.version, 1_000);
    assert.equal(log.get('b')!.version, 2_000);
    assert.deepEqual(
      sync(log, [desired('a'), desired('b', 'renamed.png'), desired('c')], 3_000),
      [],
    );
    assert.equal(log.head(), 2_000);
  });

  test('never move backwards, even when the clock does', () => {
    const log = new ChangeLog();
    sync(log, [desired('a')], 5_000);
    sync(log, [desired('a', 'x')], 1_000);
    assert.equal(log.get('a')!.version, 5_001);
    assert.equal(nextVersion(5_001, 9_000), 9_000);
  });

  test('a vanished package item becomes a removal that stays resolvable by id', () => {
    const log = new ChangeLog();
    sync(log, [desired('a'), desired('b')], 1_000);
    const removed = sync(log, [desired('a')], 2_000);
    assert.deepEqual(
      removed.map((entry) => [entry.id, entry.removed]),
      [['b', true]],
    );
    assert.equal(log.get('b')!.record.marketHashName, 'Item b');
    const back = sync(log, [desired('a'), desired('b')], 3_000);
    assert.deepEqual(
      back.map((entry) => [entry.id, entry.removed]),
      [['b', false]],
    );
  });

  test('learned items are never removed by a package sync and never replace a package record', () => {
    const log = new ChangeLog();
    sync(log, [desired('a')], 1_000);
    sync(log, [desired('n', 'a', 'learned'), desired('a', 'other', 'learned')], 2_000, false);
    assert.equal(log.get('a')!.version, 1_000);
    assert.equal(log.get('n')!.source, 'learned');
    assert.deepEqual(sync(log, [desired('a')], 3_000), []);
    const adopted = sync(log, [desired('a'), desired('n', 'package')], 4_000);
    assert.deepEqual(
      adopted.map((entry) => [entry.id, entry.source]),
      [['n', 'catalog']],
    );
  });
});

describe('pages', () => {
  test('keyset order by (version, id), strictly after since, limit and hasMore', () => {
    const log = new ChangeLog();
    sync(
      log,
      ['c', 'a', 'b'].map((id) => desired(id)),
      1_000,
    );
    sync(log, [desired('a', 'z'), desired('b'), desired('c')], 2_000);
    const first = log.page({ since: 0, upper: log.head(), after: null, limit: 2 });
    assert.deepEqual(
      first.entries.map((entry) => entry.id),
      ['b', 'c'],
    );
    assert.equal(first.hasMore, true);
    const last = first.entries.at(-1)!;
    const second = log.page({ since: 0, upper: log.head(), after: last, limit: 2 });
    assert.deepEqual(
      second.entries.map((entry) => [entry.id, entry.version]),
      [['a', 2_000]],
    );
    assert.equal(second.hasMore, false);
    assert.deepEqual(
      log.page({ since: 1_000, upper: 2_000, after: null, limit: 9 }).entries.map((e) => e.id),
      ['a'],
    );
  });
});

type Edit = { kind: 'change' | 'remove' | 'add'; pick: number };

const editArb = fc.record({
  kind: fc.constantFrom('change', 'remove', 'add') as fc.Arbitrary<Edit['kind']>,
  pick: fc.nat(1_000),
});

/** Applies one random catalog edit to the wanted set and syncs it into the log. */
function applyEdit(
  log: ChangeLog,
  wanted: Map<string, DesiredRecord>,
  edit: Edit,
  now: number,
  serial: number,
) {
  const ids = [...wanted.keys()];
  if (edit.kind === 'add' || ids.length === 0) wanted.set(`n${serial}`, desired(`n${serial}`));
  else {
    const id = ids[edit.pick % ids.length]!;
    if (edit.kind === 'remove') wanted.delete(id);
    else wanted.set(id, desired(id, `image-${serial}`));
  }
  sync(log, [...wanted.values()], now);
}

/** Items whose newest entry at or below `upper` is above `since`. */
function changedBetween(log: ChangeLog, since: number, upper: number): Map<string, number> {
  return new Map(
    log
      .page({ since, upper, after: null, limit: Number.MAX_SAFE_INTEGER })
      .entries.map((entry) => [entry.id, entry.version]),
  );
}

describe('property: random edits interleaved with paging', () => {
  const secret = Buffer.alloc(32, 7);

  /** Follows nextCursor from a first page at `since`, editing between pages when told to. */
  function syncFeed(log: ChangeLog, since: number, limit: number, between: () => void) {
    const ids: string[] = [];
    let page = readChanges(secret, 'cs2', log, EMPTY_REGISTRIES, { since: String(since), limit });
    const upper = page.schemaVersion;
    ids.push(...page.items.map((record) => record.id));
    while (page.hasMore) {
      assert.equal(page.schemaVersion, upper, 'every page reports the sync bound');
      between();
      page = readChanges(secret, 'cs2', log, EMPTY_REGISTRIES, { cursor: page.nextCursor!, limit });
      ids.push(...page.items.map((record) => record.id));
    }
    return { ids, upper: page.schemaVersion };
  }

  test('a sync yields every changed item exactly once; the next sync only later changes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.array(editArb, { maxLength: 10 }),
        fc.array(fc.tuple(editArb, fc.boolean()), { maxLength: 60 }),
        fc.integer({ min: 1, max: 7 }),
        (initial, before, during, limit) => {
          const log = new ChangeLog();
          const wanted = new Map<string, DesiredRecord>();
          for (let index = 0; index < initial; index += 1)
            wanted.set(`i${index}`, desired(`i${index}`));
          let now = 1_000;
          let serial = 0;
          sync(log, [...wanted.values()], now);
          const since = log.head();
          for (const edit of before) applyEdit(log, wanted, edit, (now += 5), (serial += 1));

          const edits = [...during];
          const first = syncFeed(log, since, limit, () => {
            const [edit, editNow] = edits.shift() ?? [null, false];
            if (edit && editNow) applyEdit(log, wanted, edit, (now += 7), (serial += 1));
          });
          assert.equal(new Set(first.ids).size, first.ids.length, 'no item twice');
          const expected = changedBetween(log, since, first.upper);
          assert.deepEqual(new Set(first.ids), new Set(expected.keys()), 'every changed item');

          for (const [edit] of during) applyEdit(log, wanted, edit, (now += 11), (serial += 1));
          const second = syncFeed(log, first.upper, limit, () => {});
          const later = [...log.latest().values()].filter((entry) => entry.version > first.upper);
          assert.equal(new Set(second.ids).size, second.ids.length);
          assert.deepEqual(new Set(second.ids), new Set(later.map((entry) => entry.id)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
