/**
 * The transport for `--events <queue>`: an `amqp://`/`amqps://` URL is an AMQP 0-9-1 queue (MinIO, Ceph through
 * RabbitMQ), an `http(s)://` URL an SQS queue URL (AWS, or an SQS-compatible server with `sqsEndpoint`).
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { SourceListError } from '../errors.js';
import { splitAmqpUrl } from './amqp-url.js';
import type { EventTransport, TransportObserver } from './event-transport.js';

export interface EventQueueSettings {
  /** An SQS queue URL, or an AMQP URL (the queue as `?queue=<name>`, or in `queue`). */
  url: string;
  /** AMQP: the queue's name when the URL does not carry it. */
  queue?: string | undefined;
  /** SQS: an SQS-compatible endpoint (default: the SDK's, which honours AWS_ENDPOINT_URL_SQS). */
  sqsEndpoint?: string | undefined;
  /** SQS: the region (default: the queue URL's). */
  region?: string | undefined;
  /** SQS: a client to use (its endpoint and credentials), left open; default: one from the settings above. */
  sqsClient?: SQSClient | undefined;
}

/** Which transport the settings name; throws SourceListError for settings that name none (without connecting). */
export function checkEventQueue(settings: EventQueueSettings): 'amqp' | 'sqs' {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(settings.url)?.[1]?.toLowerCase();
  if (scheme === 'amqp' || scheme === 'amqps') {
    splitAmqpUrl(settings.url, settings.queue);
    return 'amqp';
  }
  if (scheme === 'http' || scheme === 'https') {
    if (settings.queue !== undefined) throw new SourceListError(describeEventQueue(settings.url), 'an SQS queue is named by its URL: --events-queue goes with amqp:// URLs');
    return 'sqs';
  }
  throw new SourceListError(describeEventQueue(settings.url), 'the event queue must be an SQS queue URL (https://sqs.<region>.amazonaws.com/<account>/<name>) or an amqp:// URL');
}

/** The transport's client library (amqplib, the SQS SDK) is loaded here, by the watch that uses it, not at start-up. */
export async function createEventTransport(settings: EventQueueSettings, onError?: (error: unknown) => void, observer?: TransportObserver): Promise<EventTransport> {
  if (checkEventQueue(settings) === 'amqp') {
    const { AmqpTransport } = await import('./amqp-transport.js');
    return new AmqpTransport({ url: settings.url, queue: settings.queue, onError });
  }
  const { SqsTransport } = await import('./sqs-transport.js');
  return new SqsTransport({ queueUrl: settings.url, endpoint: settings.sqsEndpoint, region: settings.region, client: settings.sqsClient, onError, observer });
}

/** The event queue as logs may show it: no credentials, no query. */
export function describeEventQueue(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//').replace(/\?.*$/, '');
}
