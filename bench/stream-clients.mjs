// The stream bench's clients, on their own thread: opens every stream, parses SSE frames and
// records, per quote event, the ms from the quote's ingestedAt to its arrival here.
import { request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { base, streams } = workerData;
const latencies = [];
let opened = 0;
let events = 0;
const sockets = [];

function onFrame(frame) {
  const data = frame.split('\n').find((line) => line.startsWith('data: '));
  if (!frame.includes('event: quote') || !data) return;
  const ingestedAt = Date.parse(JSON.parse(data.slice(6)).quote.ingestedAt);
  latencies.push(Date.now() - ingestedAt);
  events += 1;
}

for (const { path, key } of streams) {
  const req = request(`${base}${path}`, { headers: { authorization: `ApiKey ${key}` } }, (res) => {
    if (res.statusCode !== 200) throw new Error(`stream refused: ${res.statusCode}`);
    res.setEncoding('utf8');
    let pending = '';
    let first = true;
    res.on('data', (chunk) => {
      pending += chunk;
      let cut = pending.indexOf('\n\n');
      while (cut >= 0) {
        if (first) {
          first = false;
          opened += 1;
          if (opened === streams.length) parentPort.postMessage({ type: 'open' });
        } else onFrame(pending.slice(0, cut));
        pending = pending.slice(cut + 2);
        cut = pending.indexOf('\n\n');
      }
    });
  });
  req.end();
  sockets.push(req);
}

parentPort.on('message', (message) => {
  if (message === 'reset') {
    latencies.length = 0;
    events = 0;
  } else if (message === 'stop') {
    parentPort.postMessage({ type: 'done', latencies, events });
    for (const req of sockets) req.destroy();
  }
});
