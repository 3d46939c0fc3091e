/**
 * SQS as an EventTransport: long polling (20 s) for batches of 10, the visibility timeout extended while a batch is
 * being acted on (so a slow enqueue never lets a message reappear for another consumer mid-way), DeleteMessageBatch
 * for the messages done. An unreadable message is not deleted: it comes back after the queue's visibility timeout
 * and, after the redrive policy's maxReceiveCount, moves to the dead-letter queue. A queue with a visibility timeout
 * of 0 would hand it back at once, so such a message is hidden for UNREADABLE_HIDE_S instead of being retried in a
 * hot loop. A queue without a redrive policy hands it back for ever: that is said once, at start (the observer's
 * noRedrivePolicy), from the queue's attributes.
 *
 * IAM: sqs:ReceiveMessage, sqs:DeleteMessage, sqs:ChangeMessageVisibility, sqs:GetQueueAttributes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import { SourceListError } from '../errors.js';
import { describeS3Error } from '../s3-listing.js';
import {
  EVENT_BATCH_SIZE,
  type BatchHandler,
  type EventMessage,
  type EventTransport,
  type MessageVerdict,
  type TransportObserver,
} from './event-transport.js';

export interface SqsTransportOptions {
  queueUrl: string;
  /** An SQS-compatible endpoint; default: the SDK's (which honours AWS_ENDPOINT_URL_SQS), else the queue URL's host. */
  endpoint?: string | undefined;
  /** Default: the region in the queue URL (`sqs.<region>.amazonaws.com`), else us-east-1. */
  region?: string | undefined;
  /** A client to use (left open by close()). */
  client?: SQSClient | undefined;
  /** Seconds a receive waits for messages (long polling). @default 20 */
  waitTimeSeconds?: number | undefined;
  onError?: ((error: unknown) => void) | undefined;
  observer?: TransportObserver | undefined;
}

const UNREADABLE_HIDE_S = 30;
/** Waits after a failed receive: 1 s, doubling to 30 s. */
const RECEIVE_RETRY_MS = { first: 1000, max: 30_000 };

export class SqsTransport implements EventTransport {
  readonly description: string;
  readonly #client: SQSClient;
  readonly #ownsClient: boolean;

  constructor(private readonly options: SqsTransportOptions) {
    this.description = `SQS ${options.queueUrl}`;
    this.#ownsClient = options.client === undefined;
    this.#client =
      options.client ??
      new SQSClient({
        region: options.region ?? regionOfQueueUrl(options.queueUrl) ?? 'us-east-1',
        ...(options.endpoint !== undefined ? { endpoint: options.endpoint } : {}),
      });
  }

  async run(handle: BatchHandler, hasRoom: (signal: AbortSignal) => Promise<void>, signal: AbortSignal): Promise<void> {
    const { queueUrl } = this.options;
    const { visibilityS, redrivePolicy } = await this.#attributes(signal);
    if (!redrivePolicy && !signal.aborted) this.options.observer?.noRedrivePolicy?.(this.description);
    let retryMs = RECEIVE_RETRY_MS.first;
    while (!signal.aborted) {
      await hasRoom(signal);
      if (signal.aborted) return;
      let messages: Message[];
      try {
        const response = await this.#client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: EVENT_BATCH_SIZE,
            WaitTimeSeconds: this.options.waitTimeSeconds ?? 20,
            MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
          }),
          { abortSignal: signal },
        );
        messages = (response.Messages ?? []).filter((message) => message.ReceiptHandle !== undefined);
        retryMs = RECEIVE_RETRY_MS.first;
      } catch (error) {
        if (signal.aborted) return;
        this.options.onError?.(new SourceListError(this.description, `receiving failed: ${describeS3Error(error)}`, error));
        await sleep(retryMs, undefined, { signal }).catch(() => undefined);
        retryMs = Math.min(retryMs * 2, RECEIVE_RETRY_MS.max);
        continue;
      }
      if (messages.length === 0) continue;
      const batch: EventMessage[] = messages.map((message) => ({
        id: message.MessageId ?? '?',
        body: message.Body ?? '',
        redelivered: Number(message.Attributes?.ApproximateReceiveCount ?? 1) > 1,
      }));
      const keepHidden = this.#extendVisibilityWhile(messages, visibilityS);
      let verdicts: MessageVerdict[];
      try {
        verdicts = await handle(batch);
      } finally {
        keepHidden.stop();
      }
      await this.#settle(messages, verdicts, visibilityS);
    }
  }

  async close(): Promise<void> {
    if (this.#ownsClient) this.#client.destroy();
  }

  /** The queue's visibility timeout, and whether it has a redrive policy (a dead-letter queue). */
  async #attributes(signal: AbortSignal): Promise<{ visibilityS: number; redrivePolicy: boolean }> {
    try {
      const response = await this.#client.send(
        new GetQueueAttributesCommand({ QueueUrl: this.options.queueUrl, AttributeNames: ['VisibilityTimeout', 'RedrivePolicy'] }),
        { abortSignal: signal },
      );
      const attributes = response.Attributes ?? {};
      return { visibilityS: Number(attributes.VisibilityTimeout ?? 30), redrivePolicy: (attributes.RedrivePolicy ?? '').trim() !== '' };
    } catch (error) {
      if (signal.aborted) return { visibilityS: 30, redrivePolicy: true };
      throw new SourceListError(this.description, `the queue cannot be read: ${describeS3Error(error)}`, error);
    }
  }

  /** Every half visibility timeout, hides the batch for another full one, until stopped. */
  #extendVisibilityWhile(messages: Message[], visibilityS: number): { stop: () => void } {
    if (visibilityS <= 0) return { stop: () => undefined };
    const timer = setInterval(() => {
      this.#changeVisibility(messages, visibilityS).catch((error: unknown) => this.options.onError?.(error));
    }, Math.max(500, (visibilityS * 1000) / 2));
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  async #settle(messages: Message[], verdicts: MessageVerdict[], visibilityS: number): Promise<void> {
    const done = messages.filter((_, index) => verdicts[index] === 'done');
    const unreadable = messages.filter((_, index) => verdicts[index] === 'unreadable');
    if (done.length > 0) {
      const response = await this.#client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: this.options.queueUrl,
          Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle })),
        }),
      );
      // A delete that failed leaves the message to come back: its documents are queued already, so it costs a skip.
      for (const failed of response.Failed ?? []) {
        this.options.onError?.(new SourceListError(this.description, `deleting a message failed: ${failed.Code ?? ''} ${failed.Message ?? ''}`.trim()));
      }
    }
    if (unreadable.length > 0 && visibilityS === 0) await this.#changeVisibility(unreadable, UNREADABLE_HIDE_S);
  }

  async #changeVisibility(messages: Message[], seconds: number): Promise<void> {
    await this.#client.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: this.options.queueUrl,
        Entries: messages.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle, VisibilityTimeout: seconds })),
      }),
    );
  }
}

/** `https://sqs.eu-west-1.amazonaws.com/…` → eu-west-1 (also the legacy `eu-west-1.queue.amazonaws.com`). */
export function regionOfQueueUrl(queueUrl: string): string | undefined {
  let host: string;
  try {
    host = new URL(queueUrl).hostname;
  } catch {
    return undefined;
  }
  return /^sqs\.([a-z0-9-]+)\./.exec(host)?.[1] ?? /^([a-z0-9-]+)\.queue\.amazonaws\.com/.exec(host)?.[1];
}
