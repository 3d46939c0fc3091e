/** Messages between the engine's thread pool and its worker threads. */
import type { ParseOptions } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import type { EngineErrorCode } from './engine-error.js';

export interface ThreadTask {
  id: number;
  bytes: Uint8Array;
  fileName: string;
  options: ParseOptions;
  ocrLanguages?: string[] | undefined;
}

export type ThreadReply =
  | { id: number; ok: true; data: ParseData }
  | {
      id: number;
      ok: false;
      error:
        | { kind: 'document'; apiCode: EngineErrorCode; status: number; message: string }
        | { kind: 'internal'; message: string };
    };
