/** Messages between the engine's thread pool and its worker threads. */
import type { ParseOptions } from '../contract/options.js';
import type { EmbeddedImage } from '../backend/embedded-images.js';
import type { PictureRendering } from '../backend/parse-backend.js';
import type { ParseData } from '../contract/response.js';
import type { EngineErrorCode } from './engine-error.js';
import type { CompiledPdfium } from './pdf/pdfium-module.js';

export interface ThreadTask {
  id: number;
  bytes: Uint8Array;
  fileName: string;
  options: ParseOptions;
  ocrLanguages?: string[] | undefined;
  /** Lift base64 images out of the result (embedded-images.ts): their bytes come back transferred, not in strings. */
  liftImages?: boolean | undefined;
  pictures?: PictureRendering | undefined;
  /** PDFium's module compiled by the pool, for a document read with it (pdf/pdfium-module.ts). */
  pdfium?: CompiledPdfium | undefined;
}

/**
 * A task's result comes back as one message: the ParseData as a JSON string, not the object (a structured clone
 * walks the result object by object on both sides; JSON.parse is faster at it). A string is cloned as one copy of
 * its characters; UTF-8 bytes in a transferred buffer cost an encoding and a decoding on top, and detaching the
 * buffer can make the thread wait for V8's background sweeping of array buffers.
 */
export type ThreadReply = (
  | { id: number; ok: true; json: string; images?: EmbeddedImage[] | undefined }
  | {
      id: number;
      ok: false;
      error:
        | { kind: 'document'; apiCode: EngineErrorCode; status: number; message: string; detail?: string | undefined }
        | { kind: 'internal'; message: string };
    }
) &
  ThreadMemory;

/** What a thread reports with each result, for recycling (thread-pool.ts). */
export interface ThreadMemory {
  /** The thread's heap once the document is done (V8's used heap and the external memory it tracks). */
  heapBytes?: number | undefined;
  /** The WebAssembly memories it keeps (wasm-memory.ts). */
  wasmBytes?: number | undefined;
  /**
   * Whether the document drew with PDFium's WebAssembly in the thread (a memory was released after it): a PDF whose
   * mode could have drawn but did not (no page or region to OCR) wears the thread no more than a page read by text.
   */
  drewWithWasm?: boolean | undefined;
}

/** Sent once, when the thread has loaded the engine and takes documents. */
export interface ThreadReady {
  ready: true;
}

export type ThreadMessage = ThreadReply | ThreadReady;

/** The thread's side: the result as JSON, and the buffers to transfer with it (none: the caller adds pictures'). */
export function encodeResult(data: ParseData): { json: string; transfer: ArrayBuffer[] } {
  return { json: JSON.stringify(data), transfer: [] };
}

/** The pool's side. */
export function decodeResult(json: string): ParseData {
  return JSON.parse(json) as ParseData;
}
