/**
 * The local engine as a ParseBackend: the same contract as the remote API, in-process, its parsing in the
 * thread pool. Its failures are the same typed errors the remote client raises, so the pipeline treats both alike.
 */
import { apiErrorFor, type ParseApiError } from '../backend/errors.js';
import type { ParseBackend, ParseCall, ParseResult } from '../backend/parse-backend.js';
import { checkFile, checkOptions } from '../backend/upload-checks.js';
import type { UploadSource } from '../backend/upload-source.js';
import type { ParseOptions, ParseOptionsInput } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import { parseWithJsonFormat, type JsonExtractor } from './json-format.js';
import { ERROR_MESSAGES } from '../contract/errors.js';
import { EngineError } from './engine-error.js';
import { missingLanguages, missingLanguagesMessage } from './pdf/ocr/languages.js';
import { EngineCrashError, EngineThreadPool, EngineTimeoutError, type ThreadPoolOptions } from './thread-pool.js';

export interface LocalParseEngineOptions extends ThreadPoolOptions {
  /** What the json format extracts with (src/llm/ has one for OpenAI-compatible endpoints). @default none: json is refused */
  jsonExtractor?: JsonExtractor | undefined;
  /**
   * Tesseract languages OCR reads scanned pages in when a call names none (`docmill serve --ocr-lang`). Each must
   * be installed. @default the document's declared language when installed, English otherwise
   */
  ocrLanguages?: readonly string[] | undefined;
}

export class LocalParseEngine implements ParseBackend {
  readonly pool: EngineThreadPool;
  readonly #jsonExtractor: JsonExtractor | undefined;
  readonly #ocrLanguages: readonly string[] | undefined;

  constructor(options: LocalParseEngineOptions = {}) {
    if (options.ocrLanguages) checkOcrLanguages(options.ocrLanguages);
    this.pool = new EngineThreadPool(options);
    this.#jsonExtractor = options.jsonExtractor;
    this.#ocrLanguages = options.ocrLanguages;
  }

  /** Parses bytes already in memory (what `docmill serve` receives); OCR in `ocrLanguages`, else the engine's. */
  async parseBytes(
    bytes: Uint8Array,
    fileName: string,
    options: ParseOptions,
    signal?: AbortSignal,
    ocrLanguages: readonly string[] | undefined = this.#ocrLanguages,
  ): Promise<ParseData> {
    return parseWithJsonFormat((b, f, o) => this.pool.run(b, f, o, ocrLanguages), bytes, fileName, options, this.#jsonExtractor, signal);
  }

  async parse(source: UploadSource, optionsInput: ParseOptionsInput | undefined, call: ParseCall = {}): Promise<ParseResult> {
    const options = checkOptions(optionsInput);
    checkFile(source);
    const started = Date.now();
    const bytes = await readAll(source, call.signal);
    // One attempt: the engine's failures are about the document (or a crash the queue retries), never load.
    await call.beforeAttempt?.(call.signal);
    try {
      const data = await this.parseBytes(bytes, source.fileName, options, call.signal, call.ocrLanguages ?? this.#ocrLanguages);
      call.afterAttempt?.({ ok: true, data });
      return { data, attempts: 1, durationMs: Date.now() - started };
    } catch (error) {
      const failure = engineFailureAsApiError(error, source.fileName);
      call.afterAttempt?.({ ok: false, error: failure });
      throw failure;
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/**
 * Throws ENGINE_OCR_LANGUAGE_MISSING, naming the packages to install, when a language of `codes` has no OCR data
 * here: checked when a run or a server starts, so a missing language stops it before the first scan fails on it.
 */
export function checkOcrLanguages(codes: readonly string[]): void {
  const missing = missingLanguages(codes);
  if (missing.length > 0) throw new EngineError('OCR_LANGUAGE_MISSING', missingLanguagesMessage(missing));
}

/** Maps engine failures onto the contract's statuses: the document's fault 400, too slow 408, our fault 500. */
export function engineFailureAsApiError(error: unknown, fileName: string): ParseApiError | unknown {
  if (error instanceof EngineError) {
    return apiErrorFor({ status: error.status, apiCode: error.apiCode, apiMessage: `${fileName}: ${error.message}`, retryable: false });
  }
  if (error instanceof EngineTimeoutError) {
    return apiErrorFor({ status: 408, apiMessage: `${ERROR_MESSAGES.requestTimeout}: ${fileName}: ${error.message}`, retryable: true });
  }
  if (error instanceof EngineCrashError) {
    return apiErrorFor({ status: 500, apiCode: 'UNKNOWN_ERROR', apiMessage: `${fileName}: ${error.message}`, retryable: true });
  }
  return error;
}

async function readAll(source: UploadSource, signal?: AbortSignal): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source.open()) {
    signal?.throwIfAborted();
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  return Buffer.concat(chunks, size);
}
