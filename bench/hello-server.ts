/** The baseline: a bare Fastify hello-world, started in its own process like the real server. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address && typeof address === 'object')
  console.log(`listening on http://127.0.0.1:${address.port}`);
