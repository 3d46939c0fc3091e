/**
 * The library API's options, documented once here with their defaults. The CLI turns its flags into these and
 * calls the same functions, so a flag and an option can never mean two things.
 */
import type { Logger } from 'pino';
import type { DocmillEnvironment } from '../config/environment.js';
import type { ParseOptionsInput } from '../contract/options.js';
import type { JsonExtractor } from '../engine/json-format.js';

export type { DocmillEnvironment, ParseOptionsInput };

export interface ApiOptions {
  /** Base URL of a remote /v2/parse API. @default the embedded local engine (no key, no network) */
  apiUrl?: string | undefined;
  /** Bearer key of the remote API. Never logged. */
  apiKey?: string | undefined;
  /** The `json` format's model on the local engine (src/llm has one for OpenAI-compatible endpoints). @default none: json is refused */
  jsonExtractor?: JsonExtractor | undefined;
  /** Threads of the local engine. @default the number of cores */
  engineThreads?: number | undefined;
  /**
   * The most tesseract workers the local engine reads a language with at once, up to one per thread: a batch of
   * scans then reads on that many cores, each worker holding 100-150 MB. @default 1
   */
  ocrWorkers?: number | undefined;
}

export interface S3Options {
  /** An S3-compatible endpoint (MinIO, R2...); implies path-style addressing. */
  endpoint?: string | undefined;
  region?: string | undefined;
  forcePathStyle?: boolean | undefined;
}

export interface QueueOptions {
  /** Redis to queue in. @default REDIS_URL when `environment` gives it, else an embedded redis-server under `out` */
  redisUrl?: string | undefined;
  /** Queue name. @default `docmill`; `run`: derived from `out`, so each output has its own queue */
  queue?: string | undefined;
}

export interface CommonOptions {
  /** Where logs go. @default silent */
  logger?: Logger | undefined;
  /** Aborting it stops the work as `close()` does. */
  signal?: AbortSignal | undefined;
  /**
   * Settings read from the environment (readEnvironment()): the CLI passes them; a library caller passes them only
   * if it wants docmill to honour DOCMILL_*, FIRECRAWL_* and REDIS_URL. Explicit options win. @default none
   */
  environment?: DocmillEnvironment | undefined;
}

export interface SourceOptions {
  /** Glob patterns on the relative path; when given, only matching files are taken. */
  include?: string[] | undefined;
  /** Glob patterns on the relative path; matching files are skipped. */
  exclude?: string[] | undefined;
  /** S3 source or output: how often to list the bucket when watching, in ms. @default 30000 */
  pollIntervalMs?: number | undefined;
  /** S3 watch: folder of the listing checkpoint. @default one per (source, queue) under the cache folder */
  checkpointDir?: string | undefined;
  /**
   * What becomes of the outputs of a source file that is removed (an S3 removed event or a re-list, a watched file
   * unlinked or renamed away, a file a run no longer finds): `keep` them, or `delete` every output of it (Markdown,
   * JSON, pages, blocks, chunks) with its state. Either way the manifest records the file as `removed`. @default 'keep'
   */
  removed?: 'keep' | 'delete' | undefined;
  /**
   * S3 watch: read the bucket's notifications from this queue instead of polling: an SQS queue URL, or an
   * `amqp://`/`amqps://` URL (MinIO, Ceph through RabbitMQ) naming its queue as `?queue=<name>` or in `eventsQueue`.
   * The bucket is still listed at start (the backfill) and every `relistIntervalMs`.
   */
  events?: string | undefined;
  /** AMQP events: the queue's name, when the URL does not carry it. */
  eventsQueue?: string | undefined;
  /** SQS events: an SQS-compatible endpoint. @default the SDK's (AWS_ENDPOINT_URL_SQS, else AWS) */
  sqsEndpoint?: string | undefined;
  /** S3 watch with events: how often to list the bucket anyway, in ms; 0: never. @default 21600000 (6 hours) */
  relistIntervalMs?: number | undefined;
}

export interface WorkerOptions extends CommonOptions, ApiOptions, QueueOptions {
  /** Output folder or s3://bucket/prefix. */
  out: string;
  s3?: S3Options | undefined;
  /** Documents in progress at once, and the most parse requests in flight. @default 8 */
  concurrency?: number | undefined;
  /** How long a job's lock lives without renewal. @default the options' timeout + 60 s */
  lockDurationMs?: number | undefined;
  /**
   * A PDF with more pages than this is parsed in page ranges of at most this many, each a child job, merged into one
   * result (so is any PDF over the API's 50 MiB). @default the parse options' timeout / 500 ms (60 pages at 30 s)
   */
  splitPages?: number | undefined;
  /** Serve Prometheus metrics on this port (0: any free port). @default none */
  metricsPort?: number | undefined;
  /**
   * The queue dashboard (bull-board) at /queues on the metrics port. `true`: read-only; `{ write: true }`: its retry,
   * clean, promote and remove buttons change the queue (for anyone who can reach the port); `false`: none.
   * @default true (read-only) when `metricsPort` is set
   */
  dashboard?: boolean | { write?: boolean | undefined } | undefined;
  /**
   * A credit budget for the queue, shared by all its workers: a document is not sent when the credits used plus
   * its estimate (src/pipeline/credits.ts) would pass it; the queue is paused (reason `budget`) and the rest stays
   * waiting. Credits used are the API's `creditsUsed` (the estimate when an answer has none, as on the local
   * engine). `run` sets the budget of its queue (none when omitted) and counts afresh for each new batch; a worker
   * given one sets it for the queue. @default none
   */
  maxCredits?: number | undefined;
}

export interface ProcessingOptions {
  /**
   * Tesseract languages OCR reads scanned pages in, on the local engine (`['deu', 'eng']`; each needs its
   * `@tesseract.js-data/<code>` package). Part of the options fingerprint. @default the document's declared language
   * when its data is installed, English otherwise
   */
  ocrLanguages?: string[] | undefined;
  /**
   * Also write `<path>.chunks.jsonl`: retrieval chunks that follow the document's structure, within a token budget.
   * `true` for the defaults. Part of the options fingerprint. @default no chunks
   */
  chunks?: boolean | ChunkOptions | undefined;
  /**
   * Also write every picture of a document as `<path>.assets/<name>` beside its Markdown (in the same store), which
   * links to each at its place: `![caption](report.docx.assets/image-1.png)`. Each distinct picture once; pictures
   * with a side under 16 pixels left out; at most 1000 pictures and 256 MiB of them a document (over: the document
   * fails with IMAGES_OVER_LIMIT). Part of the options fingerprint. @default false
   */
  images?: boolean | undefined;
  /**
   * With `images`: also render each page of a PDF whole (local engine), written as `<path>.assets/page-<n>.png` and
   * linked from the page's entry in `pages` and `blocks` (for vision models). Turns `images` on. Part of the options
   * fingerprint. @default false
   */
  pageImages?: boolean | undefined;
  /**
   * The resolution (36 to 600 dots per inch) a PDF's vector figures and, with `pageImages`, its pages are rendered
   * at (local engine); needs `images` or `pageImages`. Part of the options fingerprint. @default 150
   */
  imageDpi?: number | undefined;
}

export interface ChunkOptions {
  /** The most tokens in a chunk. @default 512 */
  maxTokens?: number | undefined;
  /** Tokens of a chunk's end repeated at the start of the next one in the same section. @default 0 */
  overlapTokens?: number | undefined;
}

export interface ProducerOptions extends SourceOptions, ProcessingOptions {
  /** The /v2/parse options for every document (validated before anything is queued). @default {} */
  parseOptions?: ParseOptionsInput | undefined;
  /** Re-parse even documents whose outputs are up to date. @default false */
  force?: boolean | undefined;
  /** Queue attempts for a document whose errors outlast the client's own retries. @default 4 */
  attempts?: number | undefined;
}

export interface RunOptions extends WorkerOptions, ProducerOptions {
  /** A folder, a single file, or s3://bucket/prefix. */
  source: string;
  /**
   * How long Redis may stay unreachable mid-run, in ms: the run waits for it (the embedded server is restarted at
   * once), then ends with outcome `redis-unavailable` (REDIS_UNAVAILABLE). Workers wait on instead, saying so every
   * minute. @default 180000
   */
  redisWaitMs?: number | undefined;
}

export interface StartWorkerOptions extends WorkerOptions, ProducerOptions {
  /** Also list this source, then watch it for new and changed files (what `docmill watch` does). */
  source?: string | undefined;
}

export interface EnqueueOptions extends CommonOptions, QueueOptions, ProducerOptions {
  source: string;
  s3?: S3Options | undefined;
  /** Keep adding files as they appear or change, until closed. @default false */
  watch?: boolean | undefined;
  /** Where the embedded Redis lives when no Redis URL is given (queues need one of the two). */
  out?: string | undefined;
}

/**
 * `preview` (`--dry-run`): the source and options a run or an enqueue would take; it sends, queues and writes
 * nothing, and needs no Redis.
 */
export interface PreviewOptions extends CommonOptions, ProducerOptions {
  /** A folder, a single file, or s3://bucket/prefix. */
  source: string;
  /**
   * The output a run would write into: documents already converted there with the same options are left out, as a
   * run skips them. Without it, every listed document counts (content repeated in the listing still counts once).
   */
  out?: string | undefined;
  s3?: S3Options | undefined;
  /** The workers' `splitPages`: a long PDF parsed in page ranges costs the per-request charges once per range. */
  splitPages?: number | undefined;
}

export const DEFAULTS = {
  chunkMaxTokens: 512,
  chunkOverlapTokens: 0,
  concurrency: 8,
  attempts: 4,
  pollIntervalMs: 30_000,
  relistIntervalMs: 6 * 3600 * 1000,
  removed: 'keep',
} as const;
