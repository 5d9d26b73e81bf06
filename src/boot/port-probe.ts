/**
 * Fails fast when the HTTP port cannot be bound, before a process touches its stores (no demo
 * account, no backfill, no lock for a server that will never listen). The real listen comes
 * later; a port taken in between still fails there, before the demo key is created.
 */
import net from 'node:net';

export async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'the port is in use (EADDRINUSE)' : error.message;
      reject(new Error(`cannot listen on ${host}:${port}: ${why}; nothing was started`));
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
