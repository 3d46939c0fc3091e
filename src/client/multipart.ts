/**
 * A multipart/form-data body for /v2/parse, produced as a stream: the `options` part (application/json), then the
 * `file` part whose bytes come straight from the source. Content-Length is known up front, so servers and proxies
 * that want it get it, and the file is never held in memory.
 */
import { randomBytes } from 'node:crypto';
import { FileReadError } from '../backend/errors.js';
import type { UploadSource } from '../backend/upload-source.js';

const CRLF = '\r\n';

export interface MultipartBody {
  contentType: string;
  contentLength: number;
  /** A fresh iterable each time it is called. */
  stream(): AsyncIterable<Uint8Array>;
}

/** Quotes a filename the way browsers do for form-data (RFC 7578 §4.2): `"` and line breaks percent-encoded. */
function quoteFileName(name: string): string {
  return `"${name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

export function buildMultipartBody(
  source: UploadSource,
  fileContentType: string,
  options: unknown,
): MultipartBody {
  const boundary = `----docmill-${randomBytes(16).toString('hex')}`;
  const optionsPart = Buffer.from(
    `--${boundary}${CRLF}` +
      `Content-Disposition: form-data; name="options"${CRLF}` +
      `Content-Type: application/json${CRLF}${CRLF}` +
      `${JSON.stringify(options)}${CRLF}`,
  );
  const fileHead = Buffer.from(
    `--${boundary}${CRLF}` +
      `Content-Disposition: form-data; name="file"; filename=${quoteFileName(source.fileName)}${CRLF}` +
      `Content-Type: ${fileContentType}${CRLF}${CRLF}`,
  );
  const tail = Buffer.from(`${CRLF}--${boundary}--${CRLF}`);

  async function* stream(): AsyncIterable<Uint8Array> {
    yield optionsPart;
    yield fileHead;
    let sent = 0;
    for await (const chunk of source.open()) {
      sent += chunk.byteLength;
      if (sent > source.size) break;
      yield chunk;
    }
    // Content-Length was promised from the size seen before sending; a file that changed meanwhile must not
    // be sent truncated or padded as if it were whole.
    if (sent !== source.size) {
      throw new FileReadError(source.fileName, `changed size while being uploaded (${source.size} → ${sent} bytes)`);
    }
    yield tail;
  }

  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: optionsPart.byteLength + fileHead.byteLength + source.size + tail.byteLength,
    stream,
  };
}
