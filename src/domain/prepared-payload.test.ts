import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { EncodedChunks, encodeText, PayloadWriter, preparedText } from './prepared-payload.ts';

/** Pieces of mixed width (one-byte, two-byte and astral characters) across many chunks. */
function pieces(count: number): string[] {
  return Array.from(
    { length: count },
    (_, index) => `{"n":${index},"name":"★ Item ${index} ™ 𝄞"},`,
  );
}

describe('PayloadWriter', () => {
  test('the gzip inflates to the written text, jsonBytes is its length, the ETag hashes it', async () => {
    const text = pieces(20_000);
    const writer = new PayloadWriter();
    for (const piece of text) writer.write(piece);
    const payload = await writer.finish();
    const expected = Buffer.from(text.join(''));
    assert.ok(expected.length > 5 * 64 * 1024, 'spans many chunks');
    assert.deepEqual(gunzipSync(payload.gzip), expected);
    assert.equal(payload.jsonBytes, expected.length);
    const digest = createHash('sha256').update(expected).digest('base64url').slice(0, 27);
    assert.equal(payload.etag, `"${digest}"`);
  });

  test('equal bytes give an equal ETag however they were written; other bytes another', async () => {
    const whole = await preparedText('[1,2,3]');
    const writer = new PayloadWriter(1);
    writer.write('[1,');
    writer.writeBytes(Buffer.from('2,'));
    writer.write('3]');
    const pieced = await writer.finish();
    assert.equal(pieced.etag, whole.etag);
    assert.equal(gunzipSync(pieced.gzip).toString(), '[1,2,3]');
    assert.notEqual((await preparedText('[1,2,4]')).etag, whole.etag);
  });

  test('an empty body is valid gzip of nothing', async () => {
    const payload = await new PayloadWriter().finish();
    assert.equal(gunzipSync(payload.gzip).length, 0);
    assert.equal(gunzipSync(payload.gzip).length, 0);
  });
});

describe('EncodedChunks', () => {
  test('chunks of at most 64 KB whose concatenation is the text; the digest of all of it', () => {
    const encoded = new EncodedChunks();
    const text = pieces(10_000);
    for (const piece of text) encoded.write(piece);
    const digest = encoded.digest();
    const expected = Buffer.from(text.join(''));
    assert.deepEqual(Buffer.concat(encoded.chunks), expected);
    assert.ok(encoded.chunks.length > 3);
    assert.ok(encoded.chunks.every((chunk) => chunk.length <= 64 * 1024));
    assert.ok(encoded.chunks.slice(0, -1).every((chunk) => chunk.length > 60 * 1024));
    assert.equal(digest, createHash('sha256').update(expected).digest('base64url'));
  });

  test('text encoded before and copied in gives the chunks that writing it gives', () => {
    const [written, copied] = [new EncodedChunks(), new EncodedChunks()];
    const text = [...pieces(8_000), 'x'.repeat(70 * 1024), ...pieces(10)];
    for (const piece of text) written.write(piece);
    for (const [index, piece] of text.entries()) {
      if (index % 2 === 0) copied.writeEncoded(encodeText(piece));
      else copied.write(piece);
    }
    assert.equal(copied.digest(), written.digest());
    assert.deepEqual(copied.chunks, written.chunks);
    assert.equal(encodeText('★').buffer.byteLength, 3, 'a buffer of its own, not a pool');
  });
});
