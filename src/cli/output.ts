/**
 * Output that must not be lost: writeFully resolves once the text was handed to the OS and
 * rejects (instead of crashing the process) when the stream cannot take it, e.g. EPIPE from a
 * reader that already exited or EBADF from a closed descriptor.
 */
import type { Writable } from 'node:stream';

export function writeFully(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.destroyed || !stream.writable) {
      reject(new Error('the output stream is closed'));
      return;
    }
    const onError = (error: Error) => reject(error);
    stream.on('error', onError);
    stream.write(text, (error) => {
      // 'error' may still follow the callback: keep a listener for it until the next turn.
      setImmediate(() => stream.off('error', onError));
      if (error) reject(error);
      else resolve();
    });
  });
}

/** `EPIPE`, `EBADF`, … or the message when the error has no code. */
export function describeWriteError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error as Error).message;
}
