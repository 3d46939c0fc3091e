/**
 * One shape for every S3 object event docmill reads, whatever envelope carried it (S3's own notification, the same
 * through SNS, EventBridge, MinIO): the decoders in ./envelopes.ts produce it, the watch in ./s3-event-watch.ts acts
 * on it.
 */

/** The envelope a message came in, as metrics and logs name it. */
export type EventEnvelope = 's3' | 'sns' | 'eventbridge' | 'minio';

export const EVENT_ENVELOPES: readonly EventEnvelope[] = ['s3', 'sns', 'eventbridge', 'minio'];

export interface S3ObjectEvent {
  kind: 'created' | 'removed';
  bucket: string;
  /** The object key, decoded (notifications carry it form-URL-encoded: `+` for a space, UTF-8 percent-escapes). */
  key: string;
  /** The ETag without quotes, when the event carries one (created events do). */
  etag?: string | undefined;
  size?: number | undefined;
  versionId?: string | undefined;
  /**
   * A hexadecimal string that orders the events of one key (S3 and EventBridge; MinIO sends one too): the greater
   * value is the later event. Absent on some events; such events are taken in arrival order.
   */
  sequencer?: string | undefined;
  /** When the store says the change happened (ms since the epoch), for the lag metric. */
  eventTimeMs?: number | undefined;
  /** The store's own name for the event (`ObjectCreated:Put`, `Object Deleted`...), for logs. */
  name: string;
}

/** What one queue message holds. */
export type DecodedMessage =
  /** Object events (possibly none, when the records were all of kinds docmill does not act on). */
  | { kind: 'events'; envelope: EventEnvelope; events: S3ObjectEvent[]; ignored: number }
  /** S3's `s3:TestEvent`, sent when a notification is configured: acknowledged and dropped. */
  | { kind: 'test'; envelope: EventEnvelope }
  /** Not JSON, or no shape docmill knows: left to the queue's redrive policy. */
  | { kind: 'unreadable'; reason: string };
