/**
 * Test support: a Server-Sent Events client over node:http against a loopback server. It
 * parses frames as they arrive and lets a test wait for the n-th event (no sleeps).
 */
import { request, type IncomingMessage } from 'node:http';

export interface SseMessage {
  id: number | null;
  event: string;
  data: unknown;
}

export interface SseClient {
  status: number;
  headers: IncomingMessage['headers'];
  messages: SseMessage[];
  comments: string[];
  /** The body of a non-200 answer. */
  body: string;
  /** Resolves once `count` messages arrived (rejects if the stream ends first). */
  waitFor(count: number): Promise<SseMessage[]>;
  /** Resolves once `count` comment lines arrived. */
  waitForComments(count: number): Promise<void>;
  ended: Promise<void>;
  close(): void;
}

function parseFrame(frame: string, client: SseClient): void {
  const message: SseMessage = { id: null, event: 'message', data: null };
  let sawData = false;
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) client.comments.push(line.slice(1).trim());
    else if (line.startsWith('id: ')) message.id = Number(line.slice(4));
    else if (line.startsWith('event: ')) message.event = line.slice(7);
    else if (line.startsWith('data: ')) {
      message.data = JSON.parse(line.slice(6));
      sawData = true;
    }
  }
  if (sawData) client.messages.push(message);
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const waiters = new Set<() => void>();
    let done = false;
    let markEnded: () => void = () => {};
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const client: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages: [],
        comments: [],
        body: '',
        waitFor: (count) =>
          new Promise((ok, fail) => {
            const check = () => {
              if (client.messages.length >= count) {
                waiters.delete(check);
                ok(client.messages.slice(0, count));
              } else if (done) {
                waiters.delete(check);
                fail(new Error(`stream ended after ${client.messages.length} messages`));
              }
            };
            waiters.add(check);
            check();
          }),
        waitForComments: (count) =>
          new Promise((ok, fail) => {
            const check = () => {
              if (client.comments.length >= count) {
                waiters.delete(check);
                ok();
              } else if (done) {
                waiters.delete(check);
                fail(new Error('stream ended'));
              }
            };
            waiters.add(check);
            check();
          }),
        ended: new Promise((ok) => (markEnded = ok)),
        close: () => req.destroy(),
      };
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (client.status !== 200) {
          client.body += chunk;
          return;
        }
        pending += chunk;
        let cut = pending.indexOf('\n\n');
        while (cut >= 0) {
          parseFrame(pending.slice(0, cut), client);
          pending = pending.slice(cut + 2);
          cut = pending.indexOf('\n\n');
        }
        for (const waiter of [...waiters]) waiter();
      });
      const finish = () => {
        done = true;
        markEnded();
        for (const waiter of [...waiters]) waiter();
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
      resolve(client);
    });
    req.on('error', (error) => (done ? undefined : reject(error)));
    req.end();
  });
}
