/**
 * s3rver for the store tests: the shared helper (test/helpers/s3rver.ts) with one bucket, plus a lister that
 * walks every page of it.
 */
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { startS3rver } from '../helpers/s3rver.js';

export interface LocalS3rver {
  endpoint: string;
  bucket: string;
  client: S3Client;
  /** Every key in the bucket (all pages). */
  listAllKeys(): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startLocalS3rver(bucket = 'docmill-test'): Promise<LocalS3rver> {
  const server = await startS3rver([bucket]);
  const { client } = server;
  return {
    endpoint: server.endpoint,
    bucket,
    client,
    async listAllKeys() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((object) => object.Key ?? ''));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
      return keys.sort();
    },
    stop: () => server.close(),
  };
}
