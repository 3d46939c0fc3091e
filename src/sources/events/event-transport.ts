/**
 * What the S3 event watch needs of a message queue, whatever it is (SQS, AMQP 0-9-1): batches of messages, and for
 * each message a verdict once the watch has acted on it. A message is acknowledged (deleted from SQS, acked on AMQP)
 * only after its verdict is `done`, which the watch gives once the message's documents are durably queued or need
 * nothing; an `unreadable` one is left to the queue's own redrive policy.
 */
export interface EventMessage {
  /** The queue's id for the message (SQS MessageId, AMQP message-id or delivery tag), for logs. */
  id: string;
  body: string;
  /** The queue says it delivered the message before (SQS ApproximateReceiveCount over 1, AMQP's redelivered flag). */
  redelivered?: boolean;
}

export type MessageVerdict = 'done' | 'unreadable';

export type BatchHandler = (messages: EventMessage[]) => Promise<MessageVerdict[]>;

export interface EventTransport {
  /** `SQS https://sqs…/queue` or `AMQP amqp://host:5672/vhost queue name` (never credentials), for logs. */
  readonly description: string;
  /**
   * Receives until `signal` aborts, one batch at a time: waits for `hasRoom` before each receive (backpressure),
   * hands the batch to `handle` and settles each message by its verdict. Rejects when `handle` rejects (the batch's
   * messages are then left unacknowledged, to come back) or the queue cannot be read at all; passing failures of
   * the network are reported through `onError` and retried.
   */
  run(handle: BatchHandler, hasRoom: (signal: AbortSignal) => Promise<void>, signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** What a transport tells of its queue, beside the messages. */
export interface TransportObserver {
  /**
   * The queue has no redrive policy (no dead-letter queue): a message that cannot be read comes back every
   * visibility timeout, for ever. Told once, when the transport starts, with the queue's description.
   */
  noRedrivePolicy?(queue: string): void;
}

/** Messages received per batch: SQS's maximum, and the AMQP prefetch. */
export const EVENT_BATCH_SIZE = 10;
