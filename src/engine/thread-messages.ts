/** Messages between the engine's thread pool and its worker threads. */
import type { ParseOptions } from '../contract/options.js';
import type { EmbeddedImage } from '../backend/embedded-images.js';
import type { ParseData } from '../contract/response.js';
import type { EngineErrorCode } from './engine-error.js';

export interface ThreadTask {
  id: number;
  bytes: Uint8Array;
  fileName: string;
  options: ParseOptions;
  ocrLanguages?: string[] | undefined;
  /** Lift base64 images out of the result (embedded-images.ts): their bytes come back transferred, not in strings. */
  liftImages?: boolean | undefined;
}

/** Sent while a task runs, each time its conversion enters a stage (stage.ts). */
export interface ThreadProgress {
  id: number;
  stage: string;
}

export type ThreadReply =
  | { id: number; ok: true; data: ParseData; images?: EmbeddedImage[] | undefined }
  | {
      id: number;
      ok: false;
      error:
        | { kind: 'document'; apiCode: EngineErrorCode; status: number; message: string; detail?: string | undefined }
        | { kind: 'internal'; message: string };
    };

/** Sent once, when the thread has loaded the engine and takes documents. */
export interface ThreadReady {
  ready: true;
}

export type ThreadMessage = ThreadReply | ThreadProgress | ThreadReady;
