/**
 * An engine thread's page images go to its pool through a real message port (ocr-relay.ts): handed over when they own
 * their buffer, copied when they are a view on a larger one. A small PNG made by Buffer.concat is such a view on
 * Node's shared pool, which Node 24 refuses to transfer ("Cannot transfer object of unsupported type"): with its
 * 64 KB pool, every image region of mode auto whose PNG was under 32 KB failed its OCR there.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { relayOcrTo, type OcrRequest } from '../../../src/engine/pdf/ocr/ocr-relay.js';
import { relayedRecogniser, relayPagesTo } from '../../../src/engine/pdf/ocr/relayed-recogniser.js';

let channel: MessageChannel | undefined;

afterEach(() => {
  relayPagesTo(undefined);
  channel?.port1.close();
  channel?.port2.close();
});

/** The thread's end relays to `port1`; the pool's end answers each request on `port2` with one line as high as its bytes' sum. */
function relayThrough(): { requests: OcrRequest[] } {
  channel = new MessageChannel();
  const { port1, port2 } = channel;
  const take = relayOcrTo(port1 as unknown as MessagePort);
  port1.on('message', (message: unknown) => take(message));
  const requests: OcrRequest[] = [];
  port2.on('message', (request: OcrRequest) => {
    requests.push(request);
    const sum = request.image.reduce((total, byte) => total + byte, 0);
    port2.postMessage({ ocrAnswer: request.ocrRequest, lines: [{ words: [], baseline: { x0: 0, y0: 0, x1: 0, y1: 0 }, rowHeight: sum, rtl: false }] });
  });
  return { requests };
}

describe('page images relayed to the pool', () => {
  it('sends a small image made by Buffer.concat (a view on Node’s buffer pool) and leaves the pool whole', async () => {
    const { requests } = relayThrough();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(2000, 7)]);
    const neighbour = Buffer.concat([Buffer.from('still here')]);
    const lines = await relayedRecogniser()!(png, 'eng', false);
    expect(lines[0]!.rowHeight).toBe(0x89 + 0x50 + 0x4e + 0x47 + 2000 * 7);
    expect(requests[0]!.image.byteLength).toBe(2004);
    // Nothing of the pool was detached: the image and a Buffer beside it are still readable.
    expect(png.byteLength).toBe(2004);
    expect(neighbour.toString()).toBe('still here');
  });

  it('hands over an image that owns its buffer, without a copy', async () => {
    relayThrough();
    const image = new Uint8Array(4096).fill(1);
    const lines = await relayedRecogniser()!(image, 'eng', false);
    expect(lines[0]!.rowHeight).toBe(4096);
    expect(image.byteLength).toBe(0);
  });
});
