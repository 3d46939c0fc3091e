/**
 * The local engine as a ParseBackend: the same contract as the remote API, in-process, its parsing in the
 * thread pool. Its failures are the same typed errors the remote client raises, so the pipeline treats both alike.
 *
 * Retries (docs/limits-and-retries.md, "The local engine"): none for what is the document's (corrupt, encrypted,
 * empty, too complex, unsupported, a converter's exception): those are final at once, `retryable` false, so
 * neither a client loop nor the queue tries again. A try that overran its time or lost its thread is tried once
 * more, alone on a fresh thread (isolated-retry.ts), then final: PARSE_TIMEOUT naming the stage, or
 * CONVERSION_FAILED. Each try is an attempt the caller is told of (`beforeAttempt`/`afterAttempt`), so a manifest
 * counts two for such a document.
 */
import type { EmbeddedImage } from '../backend/embedded-images.js';
import { apiErrorFor, ParseApiError } from '../backend/errors.js';
import type { ParseBackend, ParseCall, ParseResult } from '../backend/parse-backend.js';
import { checkFile, checkOptions } from '../backend/upload-checks.js';
import { readUploadBytes, type UploadSource } from '../backend/upload-source.js';
import type { ParseOptions, ParseOptionsInput } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import { parseWithJsonFormat, type JsonExtractor } from './json-format.js';
import { EngineError, engineFailureAnswer, EngineStartError } from './engine-error.js';
import { confirmedFailure, needsIsolatedRetry, SuspectDocuments } from './isolated-retry.js';
import { missingLanguages, missingLanguagesMessage } from './pdf/ocr/languages.js';
import { EngineThreadPool, type ThreadPoolOptions } from './thread-pool.js';

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
  /** Documents whose last request (through `parseBytes`) overran its time or lost its thread. */
  readonly #suspects = new SuspectDocuments();

  constructor(options: LocalParseEngineOptions = {}) {
    if (options.ocrLanguages) checkOcrLanguages(options.ocrLanguages);
    this.pool = new EngineThreadPool(options);
    this.#jsonExtractor = options.jsonExtractor;
    this.#ocrLanguages = options.ocrLanguages;
  }

  /**
   * Parses bytes already in memory, one try per call (what `docmill serve` receives); OCR in `ocrLanguages`, else
   * the engine's. A try that overran its time or lost its thread fails as such (408, 500 over the contract, retried
   * by the caller) and the document is remembered: the next call for the same bytes and options runs alone, and a
   * second failure is final (isolated-retry.ts).
   */
  async parseBytes(
    bytes: Uint8Array,
    fileName: string,
    options: ParseOptions,
    signal?: AbortSignal,
    ocrLanguages: readonly string[] | undefined = this.#ocrLanguages,
  ): Promise<ParseData> {
    const key = SuspectDocuments.key(bytes, options);
    const alone = this.#suspects.has(key);
    try {
      const data = await parseWithJsonFormat((b, f, o) => this.pool.run(b, f, o, ocrLanguages, { alone }), bytes, fileName, options, this.#jsonExtractor, signal);
      this.#suspects.forget(key);
      return data;
    } catch (error) {
      if (!needsIsolatedRetry(error)) {
        this.#suspects.forget(key);
        throw error;
      }
      if (alone) {
        this.#suspects.forget(key);
        throw confirmedFailure(error);
      }
      this.#suspects.remember(key);
      throw error;
    }
  }

  async parse(source: UploadSource, optionsInput: ParseOptionsInput | undefined, call: ParseCall = {}): Promise<ParseResult> {
    const options = checkOptions(optionsInput);
    checkFile(source);
    const started = Date.now();
    const bytes = await readUploadBytes(source, call.signal);
    const ocrLanguages = call.ocrLanguages ?? this.#ocrLanguages;
    const fileName = source.fileName;
    let attempts = 1;
    const how = { liftImages: call.liftImages === true, ...(call.pictures ? { pictures: call.pictures } : {}) };
    let images: EmbeddedImage[] | undefined;
    await call.beforeAttempt?.(call.signal);
    // The first try, and when it overran its time or lost its thread, one more alone.
    const convert = async (b: Uint8Array, f: string, o: ParseOptions): Promise<ParseData> => {
      try {
        const result = await this.pool.runLiftingImages(b, f, o, ocrLanguages, how);
        images = result.images;
        return result.data;
      } catch (error) {
        if (!needsIsolatedRetry(error)) throw error;
        call.afterAttempt?.({ ok: false, error: asApiError(error, fileName) });
        await call.beforeAttempt?.(call.signal);
        attempts += 1;
        try {
          const result = await this.pool.runLiftingImages(b, f, o, ocrLanguages, { ...how, alone: true });
          images = result.images;
          return result.data;
        } catch (again) {
          throw needsIsolatedRetry(again) ? confirmedFailure(again) : again;
        }
      }
    };
    try {
      const data = await parseWithJsonFormat(convert, bytes, fileName, options, this.#jsonExtractor, call.signal);
      call.afterAttempt?.({ ok: true, data });
      return { data, attempts, durationMs: Date.now() - started, ...(images ? { images } : {}) };
    } catch (error) {
      const failure = asApiError(error, fileName);
      if (failure instanceof ParseApiError) failure.attempts = attempts;
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

/**
 * The same status, code and retryable as `docmill serve` answers for an engine failure (engine-error.ts); other errors
 * as they are, and so an engine that cannot start: no document's failure, which a caller must not retry as one.
 */
function asApiError(error: unknown, fileName: string): unknown {
  if (error instanceof EngineStartError) return error;
  const answer = engineFailureAnswer(error, fileName);
  return answer ? apiErrorFor({ status: answer.status, apiCode: answer.apiCode, apiMessage: answer.localMessage, retryable: answer.retryable }) : error;
}
