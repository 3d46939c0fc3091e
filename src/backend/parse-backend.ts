/**
 * The one interface the pipeline parses through. Two implementations: RemoteParseApi (HTTP /v2/parse) and the
 * local engine, which speaks the same contract in-process.
 */
import type { ParseData } from '../contract/response.js';
import type { EmbeddedImage } from './embedded-images.js';
import type { ParseOptionsInput } from '../contract/options.js';
import type { UploadSource } from './upload-source.js';
import type { RetryCandidate } from './errors.js';

export interface RetryEvent {
  /** The attempt that failed (1-based). */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  error: RetryCandidate;
}

/** What one attempt came to: the data, or the error it failed with. */
export type AttemptOutcome = { ok: true; data: ParseData } | { ok: false; error: unknown };

export interface ParseCall {
  /** Aborts the request and any wait between attempts. */
  signal?: AbortSignal;
  /** Told before each wait between attempts (for logs and metrics). */
  onRetry?: (event: RetryEvent) => void;
  /** Lets the caller take over some retryable errors (a queue parks rate-limited jobs itself). */
  shouldRetry?: (error: RetryCandidate, attempt: number) => boolean;
  /**
   * Awaited before each attempt is sent (an API gate's slot); a throw stops the call without sending. Paired with
   * `afterAttempt`, told as soon as the attempt has its answer, before any wait for the next one: a slot taken here
   * is not held through the backoff between attempts.
   */
  beforeAttempt?: (signal?: AbortSignal) => Promise<void>;
  afterAttempt?: (outcome: AttemptOutcome) => void;
  /**
   * Tesseract languages OCR reads scanned pages in (`['deu', 'eng']`). Local engine only: the contract has no such
   * option, so a remote API never receives it. @default the document's declared language when installed, else English
   */
  ocrLanguages?: readonly string[] | undefined;
  /**
   * Asks for base64 images as bytes in `ParseResult.images` rather than in the result's text (embedded-images.ts).
   * Local engine only (its threads hand the bytes over without copying them); a remote API's answer is lifted by
   * the caller. @default false
   */
  liftImages?: boolean | undefined;
  /**
   * How a PDF's pictures are rendered when the result keeps them (`removeBase64Images: false`). Local engine only:
   * the contract has no such option. @default 150 dpi, no page images
   */
  pictures?: PictureRendering | undefined;
}

/** How the local engine renders a PDF's vector figures, and its pages when asked. */
export interface PictureRendering {
  /** Dots per inch. */
  dpi: number;
  /** Each page rendered whole too, its picture the `image` of the page's entries in `pages` and `blocks`. */
  pages: boolean;
}

export interface ParseResult {
  data: ParseData;
  /** Attempts made, 1 when the first succeeded. */
  attempts: number;
  /** Wall time from the first byte sent to the decoded response, waits included. */
  durationMs: number;
  /** The pictures lifted out of `data` when `liftImages` was asked and the backend does it. */
  images?: EmbeddedImage[] | undefined;
}

export interface ParseBackend {
  parse(source: UploadSource, options: ParseOptionsInput | undefined, call?: ParseCall): Promise<ParseResult>;
  close(): Promise<void>;
}
