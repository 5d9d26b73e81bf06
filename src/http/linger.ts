/**
 * Lingering close. When the server answers and then closes a connection whose request body has
 * not all arrived (413 for an oversized body, a refused parse), closing at once makes the kernel
 * answer the body bytes still arriving with a reset, and a reset can discard the answer before
 * the client has read it. Instead the answer is sent, the sending side is shut (FIN), and what
 * the client still sends is read and dropped until it closes its side or LINGER_MS pass.
 */
import type { Duplex } from 'node:stream';

/** Longest a closing connection keeps reading what the client still sends. */
export const LINGER_MS = 5_000;

/** Ends `socket` (after what was written) and drains it until the client ends or LINGER_MS. */
export function closeLingering(socket: Duplex): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.end();
}

/**
 * Makes Node's close after a `Connection: close` response a lingering one for this socket (the
 * HTTP server calls `destroySoon()` once such a response has finished; the parser keeps reading
 * and discarding the rest of the request body meanwhile).
 */
export function lingerWhenClosing(socket: Duplex): void {
  (socket as Duplex & { destroySoon?: () => void }).destroySoon = () => closeLingering(socket);
}

/** Drains a socket no parser reads any more (after a parse error), then closes it lingering. */
export function drainAndCloseLingering(socket: Duplex): void {
  socket.on('data', () => {});
  socket.resume();
  closeLingering(socket);
}
