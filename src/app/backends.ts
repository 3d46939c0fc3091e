/**
 * The parse backends an entry point works with: the remote API or the embedded local engine (what the options, then
 * the environment, name), and the engine behind `docmill serve`. Built through the composition root.
 */
import type { Logger } from 'pino';
import type { ParseBackend } from '../backend/parse-backend.js';
import { RemoteParseApi } from '../client/remote-parse-api.js';
import { resolveApiConfig } from '../config/api-config.js';
import type { DocmillEnvironment } from '../config/environment.js';
import { integerSetting } from '../config/numbers.js';
import type { JsonExtractor } from '../engine/json-format.js';
import { LocalParseEngine } from '../engine/local-engine.js';
import { openAiJsonExtractor } from '../llm/openai-json-extractor.js';
import { secrets } from '../logging/redact.js';
import type { ApiOptions } from './options.js';

/** The parse backend the options (then the environment) name: a remote API, or the embedded local engine. */
export function buildBackend(api: ApiOptions, logger: Logger, environment?: DocmillEnvironment, maxAttempts?: number): ParseBackend {
  const config = resolveApiConfig(api, environment);
  secrets.add(config.apiKey);
  if (!config.apiUrl) {
    logger.debug('no API URL: parsing with the embedded local engine');
    const threads = api.engineThreads === undefined ? undefined : integerSetting(api.engineThreads, 'engineThreads');
    const ocrWorkers = api.ocrWorkers === undefined ? undefined : integerSetting(api.ocrWorkers, 'ocrWorkers');
    return new LocalParseEngine({
      ...(threads !== undefined ? { size: threads } : {}),
      ...(environment ? { cacheDir: environment.cacheDir } : {}),
      ...(ocrWorkers !== undefined ? { ocrWorkers } : {}),
      ...(api.jsonExtractor ? { jsonExtractor: api.jsonExtractor } : {}),
    });
  }
  return new RemoteParseApi({
    apiUrl: config.apiUrl,
    apiKey: config.apiKey,
    logger,
    ...(maxAttempts !== undefined ? { retry: { maxAttempts } } : {}),
  });
}

export interface EngineSettings {
  /** Threads, and so documents parsed at once. */
  threads: number;
  /** The OCR languages of every document (the contract has no such option: they are the server's). */
  ocrLanguages?: string[] | undefined;
  /** The most tesseract workers a language reads with at once (ApiOptions.ocrWorkers). */
  ocrWorkers?: number | undefined;
  jsonExtractor?: JsonExtractor | undefined;
  /** Where copies of LiteParse's native module are kept (DocmillEnvironment.cacheDir). */
  cacheDir?: string | undefined;
}

/** The engine behind `docmill serve`. */
export function buildLocalEngine(settings: EngineSettings): LocalParseEngine {
  return new LocalParseEngine({
    size: settings.threads,
    ...(settings.cacheDir !== undefined ? { cacheDir: settings.cacheDir } : {}),
    ...(settings.ocrWorkers !== undefined ? { ocrWorkers: settings.ocrWorkers } : {}),
    ...(settings.ocrLanguages ? { ocrLanguages: settings.ocrLanguages } : {}),
    ...(settings.jsonExtractor ? { jsonExtractor: settings.jsonExtractor } : {}),
  });
}

/** The `json` format's model the environment names (DOCMILL_LLM_*), if any. */
export function jsonExtractorFrom(environment: DocmillEnvironment): JsonExtractor | undefined {
  return environment.llm ? openAiJsonExtractor(environment.llm) : undefined;
}
