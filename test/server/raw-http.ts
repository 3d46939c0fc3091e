/**
 * HTTP/1.1 by hand over node:net, for requests no HTTP client would send: bodies cut short, framing that lies,
 * headers sent a byte at a time, connections reset mid-request. Reads back one answer, or sees the connection close.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Outcome {
  /** The final answer, when one arrived (1xx interim answers are skipped, and listed in `interim`). */
  answer: RawAnswer | undefined;
  interim: number[];
  /** Whether the server closed the connection (or it was reset) before the outcome was settled. */
  closed: boolean;
}

export interface ExchangeOptions {
  /** Settle only when the connection closes, not at the first complete answer. */
  untilClose?: boolean;
  /** How long to wait for the outcome before failing the test. @default 20 s */
  deadlineMs?: number;
}

/**
 * Connects to `port`, lets `send` write (and half-close, or reset) as it likes, and settles with the answer read
 * back. A write after the server cut the connection is not a failure: the outcome says what the client saw.
 */
export function exchange(port: number, send: (socket: Socket) => Promise<void> | void, options: ExchangeOptions = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const interim: number[] = [];
    let settled = false;
    const deadline = setTimeout(() => {
      settle(undefined);
      reject(new Error(`no ${options.untilClose ? 'close' : 'answer'} within ${options.deadlineMs ?? 20_000} ms; read so far: ${JSON.stringify(received.toString('latin1').slice(0, 300))}`));
    }, options.deadlineMs ?? 20_000);
    const settle = (outcome: Outcome | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      socket.destroy();
      if (outcome) resolve(outcome);
    };
    const parsed = (): { answer: RawAnswer; complete: boolean } | undefined => {
      for (;;) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return undefined;
        const head = received.subarray(0, end).toString('latin1').split('\r\n');
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1]);
        const headers: Record<string, string> = {};
        for (const line of head.slice(1)) {
          const colon = line.indexOf(':');
          if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        if (status >= 100 && status < 200) {
          interim.push(status);
          received = received.subarray(end + 4);
          continue;
        }
        const body = received.subarray(end + 4);
        const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
        const complete = length !== undefined && body.byteLength >= length;
        return { answer: { status, headers, body: body.subarray(0, length).toString('utf8') }, complete };
      }
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const result = parsed();
      if (result?.complete && !options.untilClose) settle({ answer: result.answer, interim, closed: false });
    });
    // A reset or a broken pipe is how a cut connection shows up here: the outcome is settled on 'close'.
    socket.on('error', () => undefined);
    socket.on('close', () => settle({ answer: parsed()?.answer, interim, closed: true }));
    socket.once('connect', () => {
      Promise.resolve(send(socket)).catch(() => undefined);
    });
  });
}

/** Writes `data` and waits until the socket takes more (false when it was closed meanwhile). */
export async function write(socket: Socket, data: string | Buffer): Promise<boolean> {
  if (socket.destroyed || !socket.writable) return false;
  if (socket.write(data)) return true;
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      socket.off('drain', onDrain);
      socket.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    socket.on('drain', onDrain);
    socket.on('close', onClose);
  });
}

/** Writes `data` one byte every `intervalMs`, until it is all sent or the server closes the connection. */
export async function trickle(socket: Socket, data: string, intervalMs: number): Promise<void> {
  for (const byte of data) {
    if (!(await write(socket, byte))) return;
    await delay(intervalMs);
  }
}

/** A request head: method, path, a Host header and `headers`. */
export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export const BOUNDARY = 'hostile-boundary';

/** One multipart part (without the closing boundary). */
export function part(name: string, content: string | Buffer, filename?: string, contentType?: string): Buffer {
  const disposition = `form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}`;
  const head = `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${contentType ? `Content-Type: ${contentType}\r\n` : ''}\r\n`;
  return Buffer.concat([Buffer.from(head), Buffer.isBuffer(content) ? content : Buffer.from(content), Buffer.from('\r\n')]);
}

export const CLOSING = Buffer.from(`--${BOUNDARY}--\r\n`);

/** A whole POST with a Content-Length that matches `body`. */
export function post(path: string, body: Buffer | string, headers: Record<string, string | number> = {}): Buffer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return Buffer.concat([
    Buffer.from(requestHead('POST', path, { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers, 'Content-Length': bytes.byteLength })),
    bytes,
  ]);
}
