/** What the loopback test servers share when reading a multipart upload without holding it in memory. */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Readable, Writable } from 'node:stream';

/** Hashes a part as it streams, telling `onBytes` of each chunk; resolves with the sha256 once it ends. */
export function hashPart(stream: Readable, onBytes: (bytes: number) => void): Promise<string> {
  const hash = createHash('sha256');
  return new Promise((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => {
      onBytes(chunk.byteLength);
      hash.update(chunk);
    });
    stream.on('end', () => resolve(hash.digest('hex')));
    stream.on('error', reject);
  });
}

/** Pipes `body` (the request, or a stream fed by it) into busboy; resolves when busboy is done with it. */
export function parseThrough(req: IncomingMessage, body: Readable, parser: Writable): Promise<void> {
  const done = new Promise<void>((resolve, reject) => {
    parser.on('close', resolve);
    parser.on('error', reject);
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client closed the connection mid-body'));
    });
  });
  body.pipe(parser);
  return done;
}
