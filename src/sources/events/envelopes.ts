/**
 * Message bodies → S3ObjectEvents, detected per message, since one queue may carry several envelopes (a bucket that
 * notifies SQS directly, another through SNS):
 *
 *   S3's own notification    {"Records":[{"eventVersion":"2.x","eventSource":"aws:s3","eventName":"ObjectCreated:Put","s3":{…}}]}
 *   the same through SNS     {"Type":"Notification","Message":"<one of these, as a JSON string>"}  (raw delivery: the
 *                            body is the inner message itself, read as S3's)
 *   EventBridge              {"detail-type":"Object Created"|"Object Deleted","source":"aws.s3","detail":{"bucket","object"}}
 *   MinIO (AMQP, Kafka...)   {"EventName":"s3:ObjectCreated:Put","Key":"bucket/key","Records":[… as S3's, eventSource "minio:s3"]}
 *   S3's test message        {"Service":"Amazon S3","Event":"s3:TestEvent",…}
 *
 * Kinds other than created and removed (restores, tagging, ACLs, replication, transitions) are counted as ignored. A
 * body that is not JSON, or whose shape is none of these, or a record without a bucket or key, makes the whole
 * message unreadable: it is better inspected whole in a dead-letter queue than half acted on.
 */
import type { DecodedMessage, EventEnvelope, S3ObjectEvent } from './s3-event.js';
import { decodeEventKey } from './event-key.js';

type Json = Record<string, unknown>;

export function decodeMessage(body: string): DecodedMessage {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { kind: 'unreadable', reason: 'the body is not JSON' };
  }
  return decodeValue(value, undefined);
}

function decodeValue(value: unknown, wrapper: EventEnvelope | undefined): DecodedMessage {
  if (!isObject(value)) return { kind: 'unreadable', reason: 'the body is not a JSON object' };
  if (value['Type'] === 'Notification' && typeof value['Message'] === 'string' && wrapper === undefined) {
    let inner: unknown;
    try {
      inner = JSON.parse(value['Message']);
    } catch {
      return { kind: 'unreadable', reason: 'the SNS notification\'s Message is not JSON' };
    }
    return decodeValue(inner, 'sns');
  }
  if (value['Event'] === 's3:TestEvent') return { kind: 'test', envelope: wrapper ?? 's3' };
  if (typeof value['detail-type'] === 'string' && isObject(value['detail'])) return decodeEventBridge(value, wrapper ?? 'eventbridge');
  if (Array.isArray(value['Records'])) {
    const envelope = wrapper ?? (typeof value['EventName'] === 'string' ? 'minio' : 's3');
    return decodeRecords(value['Records'], envelope);
  }
  return { kind: 'unreadable', reason: 'no S3, SNS, EventBridge or MinIO event shape' };
}

function decodeRecords(records: unknown[], envelope: EventEnvelope): DecodedMessage {
  const events: S3ObjectEvent[] = [];
  let ignored = 0;
  for (const [index, record] of records.entries()) {
    if (!isObject(record) || !isObject(record['s3'])) return { kind: 'unreadable', reason: `record ${index} has no "s3" part` };
    const version = String(record['eventVersion'] ?? '');
    if (!version.startsWith('2.')) return { kind: 'unreadable', reason: `record ${index} has eventVersion "${version}" (2.x is read)` };
    const name = String(record['eventName'] ?? '');
    const kind = recordKind(name);
    if (kind === undefined) {
      ignored++;
      continue;
    }
    const s3 = record['s3'];
    const bucket = isObject(s3['bucket']) ? s3['bucket']['name'] : undefined;
    const object = isObject(s3['object']) ? s3['object'] : undefined;
    const rawKey = object?.['key'];
    if (typeof bucket !== 'string' || bucket === '' || typeof rawKey !== 'string' || rawKey === '') {
      return { kind: 'unreadable', reason: `record ${index} has no bucket name or object key` };
    }
    events.push({
      kind,
      bucket,
      key: decodeEventKey(rawKey),
      etag: optionalString(object?.['eTag'] ?? object?.['etag']),
      size: optionalNumber(object?.['size']),
      versionId: optionalString(object?.['versionId']),
      sequencer: optionalString(object?.['sequencer']),
      eventTimeMs: timeOf(record['eventTime']),
      name,
    });
  }
  return { kind: 'events', envelope, events, ignored };
}

/** `ObjectCreated:Put`, MinIO's `s3:ObjectCreated:Put`, `ObjectRemoved:DeleteMarkerCreated`, `LifecycleExpiration:Delete`. */
function recordKind(eventName: string): S3ObjectEvent['kind'] | undefined {
  const name = eventName.startsWith('s3:') ? eventName.slice(3) : eventName;
  if (name.startsWith('ObjectCreated:')) return 'created';
  if (name.startsWith('ObjectRemoved:') || name.startsWith('LifecycleExpiration:Delete')) return 'removed';
  return undefined;
}

function decodeEventBridge(value: Json, envelope: EventEnvelope): DecodedMessage {
  const name = value['detail-type'] as string;
  const kind = name === 'Object Created' ? 'created' : name === 'Object Deleted' ? 'removed' : undefined;
  if (kind === undefined) return { kind: 'events', envelope, events: [], ignored: 1 };
  const detail = value['detail'] as Json;
  const bucket = isObject(detail['bucket']) ? detail['bucket']['name'] : undefined;
  const object = isObject(detail['object']) ? detail['object'] : undefined;
  const rawKey = object?.['key'];
  if (typeof bucket !== 'string' || bucket === '' || typeof rawKey !== 'string' || rawKey === '') {
    return { kind: 'unreadable', reason: 'the EventBridge event has no bucket name or object key' };
  }
  const event: S3ObjectEvent = {
    kind,
    bucket,
    key: decodeEventKey(rawKey),
    etag: optionalString(object?.['etag']),
    size: optionalNumber(object?.['size']),
    versionId: optionalString(object?.['version-id']),
    sequencer: optionalString(object?.['sequencer']),
    eventTimeMs: timeOf(value['time']),
    name,
  };
  return { kind: 'events', envelope, events: [event], ignored: 0 };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return value.replaceAll('"', '');
}

function optionalNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? number : undefined;
}

function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : undefined;
}
