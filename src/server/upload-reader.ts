/**
 * Reads a /v2/parse multipart body as it arrives: one file of at most 50 MiB in the part named `file`, the
 * `options` JSON and a few small fields beside it, and nothing over the limits below. Every stream involved (the
 * request, busboy, each file stream) has its errors handled here, before and after the outcome is settled: a body
 * that ends early or is malformed is a 400, never an 'error' event nobody listens to.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { MAX_FILE_BYTES } from '../contract/limits.js';
import { badRequest, type HttpFailure, invalidMultipart, payloadTooLarge } from './http-failure.js';

const MiB = 1024 * 1024;

/** Limits of one parse request's body, as `docmill serve` applies them. */
export const UPLOAD_LIMITS = {
  /** The contract's file limit (50 MB, read as MiB). */
  fileBytes: MAX_FILE_BYTES,
  /**
   * The whole body: the file, plus 1 MiB for the options and the multipart framing. A larger Content-Length is
   * refused before a byte of the body is read; a body without one (chunked) is cut when it passes this.
   */
  bodyBytes: MAX_FILE_BYTES + MiB,
  /** Plain fields: `options` and the few an SDK adds beside it (origin, integration, zeroDataRetention...). */
  fields: 8,
  /** Each field, `options` included (a JSON schema in a `json` format is the largest thing it holds). */
  fieldBytes: MiB,
  /** Parts in all: the file, the fields and one to spare. Empty parts count, so 5,000 of them stop at the 11th. */
  parts: 10,
} as const;

export interface UploadedRequest {
  fileName: string;
  bytes: Buffer;
  optionsText: string | undefined;
}

/** Whether the request's Content-Length (when it states one) is over the body limit. */
export function declaresTooLargeBody(request: IncomingMessage): boolean {
  const declared = request.headers['content-length'];
  return declared !== undefined && Number(declared) > UPLOAD_LIMITS.bodyBytes;
}

/**
 * The upload, or an HttpFailure: 400 for a body that is not valid multipart, ends early or breaks a part limit,
 * 413 for a file or body over its limit. On failure the request is unpiped and left for the caller to discard.
 */
export function readUpload(request: IncomingMessage): Promise<UploadedRequest> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        defParamCharset: 'utf8',
        limits: {
          // busboy reports this limit when the file reaches it, not passes it: one more, so a file of exactly
          // 50 MiB (which docmill's own client sends) is accepted.
          fileSize: UPLOAD_LIMITS.fileBytes + 1,
          // `file`, and `options` when a client sends it as a file (a Blob in a FormData); more is refused below.
          files: 2,
          fields: UPLOAD_LIMITS.fields,
          fieldSize: UPLOAD_LIMITS.fieldBytes,
          // Likewise reported when reached: one more.
          parts: UPLOAD_LIMITS.parts + 1,
        },
      });
    } catch {
      reject(invalidMultipart());
      return;
    }
    let fileName: string | undefined;
    let optionsText: string | undefined;
    const chunks: Buffer[] = [];
    let fileBytes = 0;
    let bodyBytes = 0;
    let settled = false;

    const onBodyData = (chunk: Buffer): void => {
      bodyBytes += chunk.byteLength;
      if (bodyBytes > UPLOAD_LIMITS.bodyBytes) fail(payloadTooLarge('the request body', UPLOAD_LIMITS.bodyBytes));
    };
    // Closed before its end: the client went away, or the connection was cut (a deadline, a reset).
    const onBodyClosed = (): void => {
      if (!request.complete) fail(invalidMultipart());
    };
    // Kept after the outcome is settled: a later error of the request lands here, where it changes nothing.
    const onBodyError = (): void => fail(invalidMultipart());
    const detach = (): void => {
      request.unpipe(parser);
      request.off('data', onBodyData);
      request.off('close', onBodyClosed);
    };
    function fail(failure: HttpFailure): void {
      if (settled) return;
      settled = true;
      detach();
      chunks.length = 0;
      reject(failure);
      // Drop what busboy still holds once it is out of its own callbacks; the errors this gives its file
      // streams land on their listeners.
      setImmediate(() => parser.destroy());
    }
    const settle = (upload: UploadedRequest): void => {
      if (settled) return;
      settled = true;
      detach();
      resolve(upload);
    };

    parser.on('file', (name, stream, info) => {
      // busboy destroys a file stream with an error when the body ends inside it: every one is heard.
      stream.on('error', () => fail(invalidMultipart()));
      if (name === 'file' && fileName === undefined) {
        fileName = info.filename;
        stream.on('data', (chunk: Buffer) => {
          if (settled) return;
          fileBytes += chunk.byteLength;
          chunks.push(chunk);
        });
        stream.on('limit', () => fail(payloadTooLarge('the file', UPLOAD_LIMITS.fileBytes)));
        return;
      }
      if (name === 'options' && optionsText === undefined) {
        readSmallPart(stream, (text) => {
          if (text === undefined) fail(tooLargePart(name));
          else optionsText = text;
        });
        return;
      }
      stream.resume();
      fail(
        name === 'file'
          ? invalidMultipart('It has more than one file part: send the file once, in the part named "file".', [
              { path: 'file', message: 'more than one file part' },
            ])
          : invalidMultipart(`The file goes in the part named "file"; "${name}" is not a part of the contract.`, [
              { path: name, message: 'unexpected file part' },
            ]),
      );
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(tooLargePart(name));
      else if (name === 'options') optionsText = value;
    });
    parser.on('filesLimit', () =>
      fail(invalidMultipart('It has more than one file part: send the file once, in the part named "file".', [{ path: 'file', message: 'more than one file part' }])),
    );
    parser.on('fieldsLimit', () => fail(invalidMultipart(`It has more than ${UPLOAD_LIMITS.fields} fields.`)));
    parser.on('partsLimit', () => fail(invalidMultipart(`It has more than ${UPLOAD_LIMITS.parts} parts.`)));
    // A malformed part header, a body that ends inside a part or before the closing boundary: all 400.
    parser.on('error', () => fail(invalidMultipart()));
    parser.on('close', () => {
      if (fileName === undefined) {
        fail(badRequest('Bad Request: the request has no "file" part', [{ path: 'file', message: 'required' }]));
        return;
      }
      settle({ fileName, bytes: Buffer.concat(chunks, fileBytes), optionsText });
    });
    request.on('data', onBodyData);
    request.on('close', onBodyClosed);
    request.on('error', onBodyError);
    request.pipe(parser);
  });
}

function tooLargePart(name: string): HttpFailure {
  return invalidMultipart(`The "${name}" part is over ${UPLOAD_LIMITS.fieldBytes / MiB} MiB.`, [{ path: name, message: 'over 1 MiB' }]);
}

/** A part sent as a file whose text is wanted (`options` as a Blob): its text, or undefined as soon as it passes the field limit. */
function readSmallPart(stream: Readable, done: (text: string | undefined) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let reported = false;
  stream.on('data', (chunk: Buffer) => {
    if (reported) return;
    size += chunk.byteLength;
    chunks.push(chunk);
    if (size > UPLOAD_LIMITS.fieldBytes) {
      reported = true;
      chunks.length = 0;
      done(undefined);
    }
  });
  stream.on('end', () => {
    if (reported) return;
    reported = true;
    done(Buffer.concat(chunks, size).toString('utf8'));
  });
}
