/**
 * S3 object event messages as the stores send them, built by the tests (s3rver and fauxqs emit none): S3's own
 * notification (Records 2.x), the same wrapped by SNS, EventBridge's, MinIO's, and S3's test event. Keys are
 * form-URL-encoded as S3 encodes them (a space as `+`, UTF-8 percent-escapes).
 */
import { encodeEventKey } from '../../src/sources/events/event-key.js';

export interface ObjectChange {
  kind: 'created' | 'removed';
  bucket: string;
  key: string;
  etag?: string;
  size?: number;
  /** Hex; increasing per key. */
  sequencer?: string;
  time?: Date;
}

let counter = 0;
/** A sequencer greater than every one made before in this process. */
export function nextSequencer(): string {
  counter += 1;
  return (Date.now() * 1000 + counter).toString(16).toUpperCase().padStart(18, '0');
}

function record(change: ObjectChange, eventSource: string, eventName: string): Record<string, unknown> {
  return {
    eventVersion: eventSource === 'minio:s3' ? '2.0' : '2.1',
    eventSource,
    awsRegion: 'us-east-1',
    eventTime: (change.time ?? new Date()).toISOString(),
    eventName,
    userIdentity: { principalId: 'AWS:EXAMPLE' },
    requestParameters: { sourceIPAddress: '127.0.0.1' },
    responseElements: { 'x-amz-request-id': 'EXAMPLE123', 'x-amz-id-2': 'EXAMPLE/456' },
    s3: {
      s3SchemaVersion: '1.0',
      configurationId: 'docmill',
      bucket: { name: change.bucket, ownerIdentity: { principalId: 'EXAMPLE' }, arn: `arn:aws:s3:::${change.bucket}` },
      object: {
        key: encodeEventKey(change.key),
        ...(change.kind === 'created' ? { size: change.size ?? 0, eTag: change.etag } : {}),
        sequencer: change.sequencer ?? nextSequencer(),
      },
    },
  };
}

/** `{"Records":[…]}` as S3 sends it to SQS. */
export function s3Notification(...changes: ObjectChange[]): string {
  return JSON.stringify({
    Records: changes.map((change) => record(change, 'aws:s3', change.kind === 'created' ? 'ObjectCreated:Put' : 'ObjectRemoved:Delete')),
  });
}

/** The same through SNS (not raw delivery): the notification as a JSON string in `Message`. */
export function snsWrapped(message: string): string {
  return JSON.stringify({
    Type: 'Notification',
    MessageId: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324',
    TopicArn: 'arn:aws:sns:us-east-1:123456789012:docmill-events',
    Subject: 'Amazon S3 Notification',
    Message: message,
    Timestamp: new Date().toISOString(),
    SignatureVersion: '1',
    Signature: 'EXAMPLE',
    SigningCertURL: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0000.pem',
    UnsubscribeURL: 'https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe',
  });
}

/** EventBridge's "Object Created" / "Object Deleted", as an SQS target receives it. */
export function eventBridgeEvent(change: ObjectChange): string {
  return JSON.stringify({
    version: '0',
    id: '17793124-05d4-b198-2fde-7ededc63b103',
    'detail-type': change.kind === 'created' ? 'Object Created' : 'Object Deleted',
    source: 'aws.s3',
    account: '123456789012',
    time: (change.time ?? new Date()).toISOString(),
    region: 'us-east-1',
    resources: [`arn:aws:s3:::${change.bucket}`],
    detail: {
      version: '0',
      bucket: { name: change.bucket },
      object: {
        key: encodeEventKey(change.key),
        ...(change.kind === 'created' ? { size: change.size ?? 0, etag: change.etag } : {}),
        sequencer: change.sequencer ?? nextSequencer(),
      },
      'request-id': 'N4N7GDK58NMKJ12R',
      requester: '123456789012',
      'source-ip-address': '127.0.0.1',
      reason: change.kind === 'created' ? 'PutObject' : 'DeleteObject',
      ...(change.kind === 'removed' ? { 'deletion-type': 'Permanently Deleted' } : {}),
    },
  });
}

/** MinIO's notification (AMQP, Kafka, NATS, webhooks): `EventName`, `Key` and S3-shaped `Records`. */
export function minioNotification(change: ObjectChange): string {
  const eventName = change.kind === 'created' ? 's3:ObjectCreated:Put' : 's3:ObjectRemoved:Delete';
  return JSON.stringify({ EventName: eventName, Key: `${change.bucket}/${change.key}`, Records: [record(change, 'minio:s3', eventName)] });
}

/** S3's `s3:TestEvent`, sent when a notification configuration is saved. */
export function s3TestEvent(bucket: string): string {
  return JSON.stringify({
    Service: 'Amazon S3',
    Event: 's3:TestEvent',
    Time: new Date().toISOString(),
    Bucket: bucket,
    RequestId: '5582815E1AEA5ADF',
    HostId: 'EXAMPLE',
  });
}
