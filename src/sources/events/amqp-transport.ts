/**
 * An AMQP 0-9-1 queue (RabbitMQ, fed by MinIO's or Ceph's bucket notifications) as an EventTransport: a consumer
 * with a prefetch of 10, so at most one batch is unacknowledged at a time (and none is taken while the document queue
 * is full: the broker holds the rest). A message is acked once its verdict is `done`; an unreadable one is rejected
 * without requeueing, which RabbitMQ hands to the queue's dead-letter exchange when it has one (its redrive policy)
 * rather than back to this consumer in a loop. Messages in hand when the connection drops return to the queue.
 *
 * The queue is the one named in the URL (`?queue=`) or given apart; it is declared (durable) when it does not exist,
 * and used as it is when it does, whatever its arguments.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import { SourceListError } from '../errors.js';
import { splitAmqpUrl } from './amqp-url.js';
import { EVENT_BATCH_SIZE, type BatchHandler, type EventTransport } from './event-transport.js';

export interface AmqpTransportOptions {
  /** `amqp://user:password@host:5672/vhost` or `amqps://…`, possibly with `?queue=<name>`. */
  url: string;
  /** The queue, when the URL does not name it. */
  queue?: string | undefined;
  onError?: ((error: unknown) => void) | undefined;
  /** Told when the consumer is ready (the queue exists and deliveries may come). */
  onReady?: (() => void) | undefined;
}

const RECONNECT_MS = { first: 1000, max: 30_000 };

export class AmqpTransport implements EventTransport {
  readonly description: string;
  readonly #url: string;
  readonly #queue: string;
  #connection: ChannelModel | undefined;

  constructor(private readonly options: AmqpTransportOptions) {
    const { url, queue, description } = splitAmqpUrl(options.url, options.queue);
    this.#url = url;
    this.#queue = queue;
    this.description = description;
  }

  async run(handle: BatchHandler, hasRoom: (signal: AbortSignal) => Promise<void>, signal: AbortSignal): Promise<void> {
    let retryMs = RECONNECT_MS.first;
    let connectedOnce = false;
    while (!signal.aborted) {
      let lost: unknown;
      try {
        const connection = await connect(this.#url);
        this.#connection = connection;
        connectedOnce = true;
        retryMs = RECONNECT_MS.first;
        lost = await this.#consume(connection, handle, hasRoom, signal);
      } catch (error) {
        if (signal.aborted) return;
        // A URL or credentials that never worked are a setting to fix, not an outage to wait out.
        if (!connectedOnce) throw new SourceListError(this.description, `cannot connect: ${describe(error)}`, error);
        if (error instanceof HandlerFailure) throw error.cause;
        lost = error;
      } finally {
        await this.#connection?.close().catch(() => undefined);
        this.#connection = undefined;
      }
      if (signal.aborted) return;
      this.options.onError?.(new SourceListError(this.description, `the connection was lost (${describe(lost)}); reconnecting`, lost));
      await sleep(retryMs, undefined, { signal }).catch(() => undefined);
      retryMs = Math.min(retryMs * 2, RECONNECT_MS.max);
    }
  }

  async close(): Promise<void> {
    await this.#connection?.close().catch(() => undefined);
  }

  /** Consumes until the signal aborts (resolves undefined) or the connection is lost (resolves with why). */
  async #consume(connection: ChannelModel, handle: BatchHandler, hasRoom: (signal: AbortSignal) => Promise<void>, signal: AbortSignal): Promise<unknown> {
    const channel = await this.#openQueue(connection);
    await channel.prefetch(EVENT_BATCH_SIZE);
    const waiting: ConsumeMessage[] = [];
    let wake: (() => void) | undefined;
    // An object, not a `let`: it is set from the channel's callbacks while the loop below awaits.
    const connectionState: { lost?: { error: unknown } | undefined } = {};
    const lostError = (): { error: unknown } | undefined => connectionState.lost;
    const onLost = (error?: unknown) => {
      connectionState.lost ??= { error: error ?? new Error('closed') };
      wake?.();
    };
    connection.on('close', onLost);
    connection.on('error', onLost);
    channel.on('close', onLost);
    channel.on('error', onLost);
    const stop = () => wake?.();
    signal.addEventListener('abort', stop, { once: true });
    try {
      await channel.consume(
        this.#queue,
        (message) => {
          if (message === null) return onLost(new Error('the broker cancelled the consumer (the queue was deleted?)'));
          waiting.push(message);
          wake?.();
        },
        { noAck: false },
      );
      this.options.onReady?.();
      for (;;) {
        while (waiting.length === 0 && !connectionState.lost && !signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
        if (signal.aborted) return undefined;
        if (connectionState.lost) return connectionState.lost.error;
        await hasRoom(signal);
        if (signal.aborted) return undefined;
        const batch = waiting.splice(0, EVENT_BATCH_SIZE);
        let verdicts;
        try {
          verdicts = await handle(batch.map((message) => ({ id: messageId(message), body: message.content.toString('utf8'), redelivered: message.fields.redelivered })));
        } catch (error) {
          throw new HandlerFailure(error);
        }
        const lostMeanwhile = lostError();
        if (lostMeanwhile) return lostMeanwhile.error; // the acks would go nowhere: the broker has requeued these
        batch.forEach((message, index) => {
          if (verdicts[index] === 'done') channel.ack(message);
          else channel.nack(message, false, false);
        });
      }
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  /** A channel on which the queue exists: checked, or declared durable when it is missing. */
  async #openQueue(connection: ChannelModel): Promise<Channel> {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined); // a failed check closes the channel with an error event
    try {
      await channel.checkQueue(this.#queue);
      return channel;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 404) throw error;
    }
    const declaring = await connection.createChannel();
    await declaring.assertQueue(this.#queue, { durable: true });
    return declaring;
  }
}

/** Wraps the handler's failure, so it ends the watch instead of being taken for a lost connection. */
class HandlerFailure extends Error {
  constructor(override readonly cause: unknown) {
    super('the event handler failed');
  }
}

function messageId(message: ConsumeMessage): string {
  const id: unknown = message.properties.messageId;
  return typeof id === 'string' && id !== '' ? id : `delivery ${message.fields.deliveryTag}`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
