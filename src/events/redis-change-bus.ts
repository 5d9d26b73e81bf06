/**
 * ChangeBus over Redis pub/sub: one channel per prefix (`<prefix>changes`), a publisher
 * connection that fails fast while Redis is down, and a dedicated subscriber connection that
 * re-subscribes itself after every reconnect. Events travel as JSON (see change-wire.ts), split
 * into messages of at most `maxMessageBytes`. Pub/sub keeps no backlog, so gap listeners hear
 * 'reconnect' once the subscription is back after a disconnect, and 'sequence' when a
 * publisher's sequence skips (a failed publish, a message dropped by a slow-consumer limit).
 * Publishing runs one Lua script that takes the next position of the deployment
 * (`<prefix>changes:position`, never below the publisher's clock in tenths of a second, so
 * it keeps rising if Redis loses it) and the event time (never below the last one), writes
 * both into every message of the event and publishes them: all subscribers see the same
 * events in the same order at the same positions.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChangeBus, ChangeHandler, GapHandler, GapReason } from './change-bus.ts';
import { dispatch } from './change-bus.ts';
import {
  ChangeAssembler,
  DEFAULT_MAX_MESSAGE_BYTES,
  decodeMessage,
  encodeChange,
} from './change-wire.ts';
import type { Clock } from '../domain/clock.ts';
import { systemClock } from '../domain/clock.ts';
import { POSITION_FLOOR_MS } from './bus-positions.ts';
import { closeRedis, luaScript, openRedis, runScript, whenReady } from './redis-support.ts';

export interface BusLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RedisChangeBusOptions {
  /** Opens (and on close quits) both connections from this URL… */
  url?: string;
  /** …or connections the caller owns. The subscriber one is used for nothing else. */
  publisher?: Redis;
  subscriber?: Redis;
  /** Default `pricing:`; the channel is `<prefix>changes`. */
  prefix?: string;
  maxMessageBytes?: number;
  logger?: BusLogger;
  /** The publisher's clock (event times and the position floor); default the system's. */
  clock?: Clock;
}

export interface RedisChangeBus extends ChangeBus {
  readonly channel: string;
  /** Resolves once the subscriber listens on the channel for the first time. */
  readonly ready: Promise<void>;
}

const silent: BusLogger = { warn() {}, error() {} };

/** KEYS: position, last time, channel. ARGV: position floor, now, messages (each a JSON object). */
const PUBLISH_AT_POSITION = luaScript(`
local position = redis.call('INCR', KEYS[1])
local floor = tonumber(ARGV[1])
if position < floor then
  position = floor
  redis.call('SET', KEYS[1], position)
end
local at = tonumber(ARGV[2])
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if at < last then at = last else redis.call('SET', KEYS[2], ARGV[2]) end
local head = '{"position":' .. string.format('%d', position) .. ',"at":' .. string.format('%d', at) .. ','
for i = 3, #ARGV do
  redis.call('PUBLISH', KEYS[3], head .. string.sub(ARGV[i], 2))
end
return position
`);

function connections(options: RedisChangeBusOptions, channel: string) {
  const { url } = options;
  if (!url && !(options.publisher && options.subscriber)) {
    throw new Error('createRedisChangeBus needs `url` or both `publisher` and `subscriber`');
  }
  const publisher = options.publisher ?? openRedis(url!);
  const subscriber =
    options.subscriber ??
    openRedis(url!, {
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
      autoResubscribe: false,
      connectionName: `${channel}-subscriber`,
    });
  return {
    publisher,
    subscriber,
    ownsPublisher: !options.publisher,
    ownsSubscriber: !options.subscriber,
  };
}

export function createRedisChangeBus(options: RedisChangeBusOptions): RedisChangeBus {
  const channel = `${options.prefix ?? 'pricing:'}changes`;
  const clock = options.clock ?? systemClock;
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const logger = options.logger ?? silent;
  const { publisher, subscriber, ownsPublisher, ownsSubscriber } = connections(options, channel);
  const handlers = new Set<ChangeHandler>();
  const gapHandlers = new Set<GapHandler>();
  const assembler = new ChangeAssembler();
  const publisherId = randomBytes(8).toString('hex');
  let nextSeq = 1;
  let listened = false;
  let closed = false;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const onHandlerError = (error: unknown) => logger.error({ err: error }, 'change handler failed');
  const gap = (reason: GapReason) => {
    logger.warn({ reason, channel }, 'change events may have been missed');
    for (const handler of [...gapHandlers]) handler(reason);
  };

  const listen = async () => {
    try {
      await subscriber.subscribe(channel);
    } catch (error) {
      if (!closed) logger.warn({ err: error, channel }, 'change channel subscribe failed');
      return;
    }
    if (!listened) {
      listened = true;
      markReady();
    } else {
      gap('reconnect');
    }
  };

  const onMessage = (from: string, raw: string) => {
    if (from !== channel || closed) return;
    let received;
    try {
      received = assembler.accept(decodeMessage(raw));
    } catch (error) {
      logger.warn({ err: error, channel }, 'ignored a malformed change message');
      return;
    }
    if (received.gap) gap('sequence');
    if (received.event) dispatch([...handlers], received.event, onHandlerError, received.position);
  };

  subscriber.on('ready', listen);
  subscriber.on('message', onMessage);
  if (subscriber.status === 'ready') void listen();

  const keys = [`${channel}:position`, `${channel}:at`, channel];
  const send = async (messages: string[]) => {
    const now = clock.now();
    const floor = Math.floor(now / POSITION_FLOOR_MS);
    await runScript(publisher, PUBLISH_AT_POSITION, keys, [floor, now, ...messages]);
  };

  return {
    channel,
    ready,
    async publish(event) {
      if (closed) throw new Error('change bus is closed');
      const messages = encodeChange(event, publisherId, nextSeq, maxBytes);
      nextSeq += messages.length;
      await whenReady(publisher);
      await send(messages);
    },
    subscribe(handler) {
      const own: ChangeHandler = (event, position) => handler(event, position);
      handlers.add(own);
      return () => {
        handlers.delete(own);
      };
    },
    onGap(handler) {
      const own: GapHandler = (reason) => handler(reason);
      gapHandlers.add(own);
      return () => {
        gapHandlers.delete(own);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      handlers.clear();
      gapHandlers.clear();
      subscriber.off('ready', listen);
      subscriber.off('message', onMessage);
      if (ownsSubscriber) await closeRedis(subscriber);
      else await subscriber.unsubscribe(channel).catch(() => {});
      if (ownsPublisher) await closeRedis(publisher);
    },
  };
}
