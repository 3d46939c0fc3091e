/**
 * A real SQS server for tests: fauxqs 1.9.2 (MIT; the last release that runs on Node 20), started in this process on
 * a free port. Its queue URLs name `sqs.<region>.localhost`, which does not resolve here, so clients (and docmill,
 * with --sqs-endpoint) talk to `endpoint` and name queues by their URLs.
 */
import {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { startFauxqs } from 'fauxqs';

export interface FauxqsHandle {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  client: SQSClient;
  /** Creates a queue; with `deadLetterAfter`, a dead-letter queue `<name>-dlq` that takes messages received that often. */
  createQueue(name: string, options?: { visibilityTimeoutS?: number; deadLetterAfter?: number }): { url: string; dlqUrl?: string };
  send(queueUrl: string, body: string): Promise<void>;
  /** Sends many bodies in batches of 10. */
  sendAll(queueUrl: string, bodies: readonly string[]): Promise<void>;
  /** Messages in the queue, visible or in flight (ApproximateNumberOfMessages + …NotVisible). */
  depth(queueUrl: string): Promise<number>;
  /** Takes every message visible now (for dead-letter queues). */
  drain(queueUrl: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startSqs(): Promise<FauxqsHandle> {
  const server = await startFauxqs({ port: 0, logger: false });
  const endpoint = `http://127.0.0.1:${server.port}`;
  const client = new SQSClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  return {
    endpoint,
    client,
    createQueue(name, options = {}) {
      let dlq: { queueUrl: string; queueArn: string } | undefined;
      if (options.deadLetterAfter !== undefined) dlq = server.createQueue(`${name}-dlq`);
      const attributes: Record<string, string> = { VisibilityTimeout: String(options.visibilityTimeoutS ?? 30) };
      if (dlq) attributes.RedrivePolicy = JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: String(options.deadLetterAfter) });
      const queue = server.createQueue(name, { attributes });
      return { url: queue.queueUrl, ...(dlq ? { dlqUrl: dlq.queueUrl } : {}) };
    },
    async send(queueUrl, body) {
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
    },
    async sendAll(queueUrl, bodies) {
      for (let i = 0; i < bodies.length; i += 10) {
        const entries = bodies.slice(i, i + 10).map((body, index) => ({ Id: String(index), MessageBody: body }));
        await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      }
    },
    async depth(queueUrl) {
      const response = await client.send(
        new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
      );
      return Number(response.Attributes?.ApproximateNumberOfMessages ?? 0) + Number(response.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
    },
    async drain(queueUrl) {
      const response = await client.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
      return (response.Messages ?? []).map((message) => message.Body ?? '');
    },
    async close() {
      client.destroy();
      await server.stop();
    },
  };
}
