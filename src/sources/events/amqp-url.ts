/**
 * An AMQP event queue's URL taken apart, without the AMQP client: settings are checked at start-up, where loading
 * amqplib would cost every command that never consumes a queue.
 */
import { SourceListError } from '../errors.js';

/** The URL to connect to (without `queue`), the queue's name, and a description without credentials. */
export function splitAmqpUrl(raw: string, queueOption: string | undefined): { url: string; queue: string; description: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SourceListError('--events', `"${redact(raw)}" is not an amqp:// or amqps:// URL`);
  }
  const queue = queueOption ?? url.searchParams.get('queue') ?? '';
  url.searchParams.delete('queue');
  if (queue === '') throw new SourceListError(redact(raw), 'no queue named: add ?queue=<name> to the URL, or --events-queue <name>');
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  return { url: url.href, queue, description: `AMQP ${shown.href} queue ${queue}` };
}

function redact(raw: string): string {
  return raw.replace(/\/\/[^@/]*@/, '//***@');
}
