/**
 * A growable buffer of unsigned LEB128 varints (the rollup codec's number form; its
 * SectionReader reads them back).
 */

export class VarintWriter {
  private bytes: Buffer;
  length = 0;

  constructor(capacity = 256) {
    this.bytes = Buffer.allocUnsafe(Math.max(16, capacity));
  }

  put(value: number): void {
    if (this.bytes.length - this.length < 10) this.reserve(10);
    let rest = value;
    while (rest >= 128) {
      this.bytes[this.length++] = (rest % 128) | 128;
      rest = Math.floor(rest / 128);
    }
    this.bytes[this.length++] = rest;
  }

  /** Appends raw bytes, behind their length when asked. */
  putBytes(from: Uint8Array, withLength = false): void {
    if (withLength) this.put(from.length);
    this.reserve(from.length);
    this.bytes.set(from, this.length);
    this.length += from.length;
  }

  /** Starts over (the buffer is kept). */
  clear(): void {
    this.length = 0;
  }

  /** Appends another writer's bytes behind their length. */
  append(from: VarintWriter): void {
    this.put(from.length);
    this.reserve(from.length);
    from.bytes.copy(this.bytes, this.length, 0, from.length);
    this.length += from.length;
  }

  /** A view of the bytes written (valid until the next write). */
  result(): Buffer {
    return this.bytes.subarray(0, this.length);
  }

  private reserve(bytes: number): void {
    if (this.bytes.length - this.length >= bytes) return;
    const grown = Buffer.allocUnsafe((this.length + bytes) * 2);
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
}
