/**
 * The envelopes an S3 event queue carries, decoded into one event shape: S3's own notification, the same through SNS
 * (wrapped, and raw delivery, which is S3's own body), EventBridge, MinIO, and S3's test event. Keys arrive
 * form-URL-encoded; the sequencer orders the events of one key.
 */
import { describe, expect, it } from 'vitest';
import { decodeEventKey, encodeEventKey } from '../../src/sources/events/event-key.js';
import { compareSequencers, EventOrder } from '../../src/sources/events/event-order.js';
import { decodeMessage } from '../../src/sources/events/envelopes.js';
import { eventBridgeEvent, minioNotification, s3Notification, s3TestEvent, snsWrapped } from '../helpers/s3-notifications.js';

const KEYS = ['docs/report one.pdf', 'docs/a+b.html', 'docs/Übersicht 2026/données.csv', 'docs/100%.docx', 'docs/日本語.html'];

describe('decodeMessage', () => {
  it("reads S3's notification, with every key decoded as it was written", () => {
    const created = KEYS.map((key, i) => ({ kind: 'created' as const, bucket: 'in', key, etag: `etag${i}`, size: 10 + i, sequencer: `00${i}A` }));
    const decoded = decodeMessage(s3Notification(...created, { kind: 'removed', bucket: 'in', key: KEYS[0]!, sequencer: '00FF' }));
    expect(decoded).toMatchObject({ kind: 'events', envelope: 's3', ignored: 0 });
    if (decoded.kind !== 'events') return;
    expect(decoded.events.map((event) => event.key)).toEqual([...KEYS, KEYS[0]]);
    expect(decoded.events[1]).toMatchObject({ kind: 'created', bucket: 'in', etag: 'etag1', size: 11, sequencer: '001A', name: 'ObjectCreated:Put' });
    expect(decoded.events.at(-1)).toMatchObject({ kind: 'removed', key: KEYS[0], etag: undefined, name: 'ObjectRemoved:Delete' });
    expect(decoded.events[0]?.eventTimeMs).toBeTypeOf('number');
  });

  it('unwraps an SNS notification; raw delivery is read as S3 sent it', () => {
    const inner = s3Notification({ kind: 'created', bucket: 'in', key: KEYS[2]!, etag: 'e', size: 1 });
    expect(decodeMessage(snsWrapped(inner))).toMatchObject({ kind: 'events', envelope: 'sns', events: [{ key: KEYS[2], etag: 'e' }] });
    expect(decodeMessage(inner)).toMatchObject({ kind: 'events', envelope: 's3', events: [{ key: KEYS[2] }] });
    expect(decodeMessage(snsWrapped(s3TestEvent('in')))).toEqual({ kind: 'test', envelope: 'sns' });
  });

  it("reads EventBridge's Object Created and Object Deleted, and counts its other kinds as ignored", () => {
    expect(decodeMessage(eventBridgeEvent({ kind: 'created', bucket: 'in', key: KEYS[1]!, etag: 'e1', size: 5, sequencer: '0A' }))).toMatchObject({
      kind: 'events',
      envelope: 'eventbridge',
      events: [{ kind: 'created', bucket: 'in', key: 'docs/a+b.html', etag: 'e1', size: 5, sequencer: '0A', name: 'Object Created' }],
    });
    expect(decodeMessage(eventBridgeEvent({ kind: 'removed', bucket: 'in', key: KEYS[4]! }))).toMatchObject({
      events: [{ kind: 'removed', key: KEYS[4] }],
    });
    const restore = JSON.parse(eventBridgeEvent({ kind: 'created', bucket: 'in', key: 'a.pdf' })) as Record<string, unknown>;
    restore['detail-type'] = 'Object Restore Completed';
    expect(decodeMessage(JSON.stringify(restore))).toEqual({ kind: 'events', envelope: 'eventbridge', events: [], ignored: 1 });
  });

  it("reads MinIO's notification (its event names carry an s3: prefix)", () => {
    expect(decodeMessage(minioNotification({ kind: 'created', bucket: 'in', key: KEYS[3]!, etag: 'm', size: 3 }))).toMatchObject({
      kind: 'events',
      envelope: 'minio',
      events: [{ kind: 'created', key: 'docs/100%.docx', etag: 'm', name: 's3:ObjectCreated:Put' }],
    });
    expect(decodeMessage(minioNotification({ kind: 'removed', bucket: 'in', key: KEYS[0]! }))).toMatchObject({ events: [{ kind: 'removed' }] });
  });

  it("knows S3's test event, and counts kinds it does not act on (restores, tagging) as ignored", () => {
    expect(decodeMessage(s3TestEvent('in'))).toEqual({ kind: 'test', envelope: 's3' });
    const tagging = JSON.parse(s3Notification({ kind: 'created', bucket: 'in', key: 'a.pdf', etag: 'e' })) as { Records: Array<Record<string, unknown>> };
    tagging.Records[0]!.eventName = 'ObjectTagging:Put';
    expect(decodeMessage(JSON.stringify(tagging))).toEqual({ kind: 'events', envelope: 's3', events: [], ignored: 1 });
  });

  it('calls unreadable what is not JSON, of no known shape, or a record without its bucket or key', () => {
    expect(decodeMessage('this is not JSON')).toEqual({ kind: 'unreadable', reason: 'the body is not JSON' });
    expect(decodeMessage('[1,2]')).toMatchObject({ kind: 'unreadable' });
    expect(decodeMessage('{"hello":"world"}')).toMatchObject({ kind: 'unreadable' });
    expect(decodeMessage(JSON.stringify({ Type: 'Notification', Message: 'not json' }))).toMatchObject({ kind: 'unreadable' });
    expect(decodeMessage(JSON.stringify({ Records: [{ eventVersion: '2.1', eventName: 'ObjectCreated:Put', s3: { bucket: { name: 'in' }, object: {} } }] }))).toMatchObject({
      kind: 'unreadable',
      reason: 'record 0 has no bucket name or object key',
    });
    expect(decodeMessage(JSON.stringify({ Records: [{ eventVersion: '1.0', s3: {} }] }))).toMatchObject({ kind: 'unreadable' });
  });
});

describe('event keys', () => {
  it('decode + as a space and UTF-8 escapes, keep a run of escapes that is not UTF-8, and round-trip', () => {
    expect(decodeEventKey('red+flower.jpg')).toBe('red flower.jpg');
    expect(decodeEventKey('a%2Bb.pdf')).toBe('a+b.pdf');
    expect(decodeEventKey('%C3%9Cbersicht.csv')).toBe('Übersicht.csv');
    expect(decodeEventKey('bad%FF%FE+name%C3%A9.pdf')).toBe('bad%FF%FE nameé.pdf');
    for (const key of KEYS) expect(decodeEventKey(encodeEventKey(key))).toBe(key);
  });
});

describe('sequencers', () => {
  it('compare as hexadecimal numbers, whatever their lengths and case', () => {
    expect(compareSequencers('0055AED6DCD90281E5', '0055AED6DCD90281E6')).toBeLessThan(0);
    expect(compareSequencers('FF', '0100')).toBeLessThan(0);
    expect(compareSequencers('00ab', 'AB')).toBe(0);
  });

  it('admit each key\'s newer events only, and a forgotten one again', () => {
    const order = new EventOrder(2);
    expect(order.admit('a', '02')).toBe(true);
    expect(order.admit('a', '02')).toBe(false); // a duplicate
    expect(order.admit('a', '01')).toBe(false); // older, arriving late
    expect(order.admit('a', '03')).toBe(true);
    expect(order.admit('b', undefined)).toBe(true); // no sequencer: arrival order
    order.forget('a', '03');
    expect(order.admit('a', '03')).toBe(true);
    order.admit('b', '01');
    order.admit('c', '01'); // over the limit: the least recently seen key (a) is forgotten
    expect(order.admit('a', '02')).toBe(true);
  });
});
