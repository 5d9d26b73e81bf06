/** The baseline of the pinned read bench: a bare `node:http` hello-world in its own process. */
import { createServer } from 'node:http';

const body = Buffer.from(JSON.stringify({ hello: 'world' }));
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object')
    console.log(`listening on http://127.0.0.1:${address.port}`);
});
