/**
 * docmill as a library: `import { parseFile, run } from 'docmill'`. Everything the CLI does goes through these
 * functions; see docs/library.md for examples.
 */
export { parseFile, type ParseFileOptions } from './app/parse-file.js';
export { run, type RunHandle } from './app/run.js';
export { startWorker, type WorkerHandle, type WorkerSummary } from './app/worker.js';
export { enqueue, type EnqueueHandle, type EnqueueResult } from './app/enqueue.js';
export { preview, type CostPreview, type PreviewItem } from './app/preview.js';
export { estimateCredits, CREDIT_RULES, type CostedDocument } from './pipeline/credits.js';
export type { PipelineEvent, PipelineEventType, PipelineEvents } from './app/events.js';
export type { RunSummary, RunCounts, CauseGroup } from './app/summary.js';
export { describeGroups } from './app/summary.js';
// Retrieval chunks of a parse result (what `--chunks` writes).
export {
  chunk,
  ChunkOptionsError,
  type Chunk,
  type ChunkBlock,
  type ChunkSource,
  type ChunkingOptions,
} from './chunk/chunk.js';
export { TOKEN_ENCODING } from './chunk/tokens.js';
export type {
  ApiOptions,
  CommonOptions,
  EnqueueOptions,
  PreviewOptions,
  ProducerOptions,
  QueueOptions,
  RunOptions,
  S3Options,
  SourceOptions,
  StartWorkerOptions,
  WorkerOptions,
} from './app/options.js';
export { readEnvironment, type DocmillEnvironment } from './config/environment.js';
export { InvalidSettingError } from './config/numbers.js';
export { MissingRedisError } from './app/errors.js';

// The parse backends: the same contract remote and local.
export type { ParseBackend, ParseCall, ParseResult, RetryEvent } from './backend/parse-backend.js';
export { localFileSource, type UploadSource } from './backend/upload-source.js';
export { RemoteParseApi, type RemoteParseApiOptions } from './client/remote-parse-api.js';
export { LocalParseEngine, type LocalParseEngineOptions } from './engine/local-engine.js';
export type { JsonExtractor, JsonFormat } from './engine/json-format.js';
export { openAiJsonExtractor, type LlmConfig } from './llm/openai-json-extractor.js';

// Errors, with their stable codes.
export { DocmillError } from './errors/docmill-error.js';
export { ERROR_CODES, DOCUMENT_ERROR_CODES, type DocmillErrorCode, type DocumentErrorCode } from './errors/codes.js';
export {
  ParseApiError,
  BadRequestError,
  UnauthorizedError,
  CreditsExhaustedError,
  ForbiddenError,
  NotFoundError,
  RequestTimeoutError,
  PayloadTooLargeError,
  UnprocessableError,
  RateLimitedError,
  ServerError,
  ParseNetworkError,
  ParseDeadlineError,
  InvalidResponseError,
  ParseAbortedError,
  OptionsValidationError,
  FileTooLargeError,
  UnsupportedFileError,
  FileReadError,
  type RateLimitKind,
} from './backend/errors.js';
export { EngineError, EngineTimeoutError, EngineCrashError } from './engine/engine-error.js';
export { RedisUnavailableError } from './queue/redis-connection.js';

// The contract's option and response types.
export type { ParseOptions, ParseOptionsInput, Format, FormatType, PdfParser, PdfMode, Redaction } from './contract/options.js';
export type { ParseData, ParseMetadata, PageBlocks, BlockItem, PageMarkdown, ParseResponse, ErrorBody } from './contract/response.js';
export { SUPPORTED_EXTENSIONS, type SupportedExtension } from './contract/extensions.js';
export type { DocumentOutcome } from './pipeline/outcome.js';
export type { ManifestEntry, ManifestStatus } from './store/output-store.js';
