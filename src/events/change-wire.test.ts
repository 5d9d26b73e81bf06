import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChangeAssembler, decodeMessage, encodeChange } from './change-wire.ts';
import type { ChangeEvent } from './change-bus.ts';
import { largeBatch, sampleBatch } from './test-batches.ts';
import { listing, sale } from '../store/contract-fixtures.ts';

const MB = 1_000_000;

function assemble(messages: string[], assembler = new ChangeAssembler()) {
  const events: ChangeEvent[] = [];
  let gaps = 0;
  for (const raw of messages) {
    const received = assembler.accept(decodeMessage(raw));
    if (received.event) events.push(received.event);
    if (received.gap) gaps += 1;
  }
  return { events, gaps };
}

describe('change wire format', () => {
  test('a small event is one message and round-trips', () => {
    const event: ChangeEvent = { game: 'rust', batch: sampleBatch(3), origin: 'ingest:ü' };
    const messages = encodeChange(event, 'pub', 1, MB);
    assert.equal(messages.length, 1);
    assert.deepEqual(assemble(messages).events, [event]);
  });

  test('a 3 MB batch is split into messages of at most 1 MB that reassemble in order', () => {
    const event: ChangeEvent = { game: 'cs2', batch: largeBatch(7_000), origin: 'ingest' };
    const messages = encodeChange(event, 'pub', 1, MB);
    assert.ok(messages.length >= 3, `${messages.length} messages`);
    for (const message of messages) assert.ok(Buffer.byteLength(message) <= MB);
    assert.deepEqual(assemble(messages).events, [event]);
  });

  test('any batch survives any split when every record fits in a message', () => {
    const record = fc.oneof(
      fc.record({ kind: fc.constant('sale' as const), price: fc.nat(), text: fc.string() }),
      fc.record({ kind: fc.constant('listing' as const), price: fc.nat(), text: fc.string() }),
    );
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 40 }),
        fc.integer({ min: 900, max: 4_000 }),
        (records, maxBytes) => {
          const batch = {
            sides: [],
            sales: records
              .filter((r) => r.kind === 'sale')
              .map((r) => sale({ price: r.price, itemId: r.text })),
            listings: records
              .filter((r) => r.kind === 'listing')
              .map((r) => listing({ price: r.price, phase: r.text })),
          };
          const event: ChangeEvent = { game: 'cs2', batch, origin: 'o' };
          const messages = encodeChange(event, 'pub', 10, maxBytes);
          for (const message of messages) assert.ok(Buffer.byteLength(message) <= maxBytes);
          const { events, gaps } = assemble(messages);
          assert.deepEqual(events, [event]);
          assert.equal(gaps, 0);
        },
      ),
      { numRuns: 100 },
    );
  });

  test('a skipped sequence number is a gap, and a partial event is dropped', () => {
    const event: ChangeEvent = { game: 'cs2', batch: largeBatch(10), origin: 'ingest' };
    const parts = encodeChange(event, 'pub', 1, 2_000);
    assert.ok(parts.length >= 3);
    const next = encodeChange(event, 'pub', 1 + parts.length, 2_000);
    const withoutMiddle = [...parts.slice(0, 1), ...parts.slice(2), ...next];
    const { events, gaps } = assemble(withoutMiddle);
    assert.equal(gaps, 1);
    assert.deepEqual(events, [event], 'only the complete second event is delivered');
  });

  test('sequences are tracked per publisher, not per event origin', () => {
    const assembler = new ChangeAssembler();
    const a = (seq: number, origin: string) =>
      encodeChange({ game: 'cs2', batch: sampleBatch(seq), origin }, 'pub-a', seq, MB);
    const b = encodeChange({ game: 'cs2', batch: sampleBatch(), origin: 'x' }, 'pub-b', 7, MB);
    const { events, gaps } = assemble([...a(1, 'x'), ...b, ...a(2, 'y'), ...a(3, 'x')], assembler);
    assert.equal(events.length, 4);
    assert.equal(gaps, 0);
    assert.equal(assemble(a(5, 'x'), assembler).gaps, 1);
  });

  test('rejects messages that are not change messages', () => {
    assert.throws(() => decodeMessage('{"seq":1}'));
    assert.throws(() => decodeMessage('not json'));
  });
});
