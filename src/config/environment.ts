/**
 * The one place docmill reads its environment. The CLI calls it with `process.env`; the library API calls it only
 * when a caller passes `environment: readEnvironment()`, so a service embedding docmill decides what it takes from
 * its own environment. Nothing else in docmill reads `process.env`.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the `json` format's model is (an OpenAI-compatible endpoint): settings only, no LLM code (that is src/llm). */
export interface LlmSettings {
  /** The endpoint's base URL, up to `/v1` (no trailing slash). */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
}

export interface DocmillEnvironment {
  /** DOCMILL_API_URL, else FIRECRAWL_API_URL. */
  apiUrl: string | undefined;
  /** DOCMILL_API_KEY, else FIRECRAWL_API_KEY. */
  apiKey: string | undefined;
  /** REDIS_URL. */
  redisUrl: string | undefined;
  /** DOCMILL_LOG_LEVEL. */
  logLevel: string | undefined;
  /** DOCMILL_LLM_BASE_URL + DOCMILL_LLM_MODEL (+ DOCMILL_LLM_API_KEY): the json format's model, when both are set. */
  llm: LlmSettings | undefined;
  /** DOCMILL_SERVER_API_KEYS, comma-separated: the bearer keys `docmill serve` accepts. */
  serverApiKeys: string[];
  /** XDG_CACHE_HOME, else ~/.cache: S3 checkpoints and the embedded Redis of an S3 output live below it. */
  cacheDir: string;
}

export function readEnvironment(env: NodeJS.ProcessEnv = process.env): DocmillEnvironment {
  const baseUrl = nonEmpty(env.DOCMILL_LLM_BASE_URL);
  const model = nonEmpty(env.DOCMILL_LLM_MODEL);
  return {
    apiUrl: nonEmpty(env.DOCMILL_API_URL) ?? nonEmpty(env.FIRECRAWL_API_URL),
    apiKey: nonEmpty(env.DOCMILL_API_KEY) ?? nonEmpty(env.FIRECRAWL_API_KEY),
    redisUrl: nonEmpty(env.REDIS_URL),
    logLevel: nonEmpty(env.DOCMILL_LOG_LEVEL),
    llm: baseUrl && model ? { baseUrl: baseUrl.replace(/\/+$/, ''), model, apiKey: nonEmpty(env.DOCMILL_LLM_API_KEY) } : undefined,
    serverApiKeys: (env.DOCMILL_SERVER_API_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
    cacheDir: nonEmpty(env.XDG_CACHE_HOME) ?? join(nonEmpty(env.HOME) ?? homedir(), '.cache'),
  };
}

export function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
