/**
 * `serve`: the local engine behind POST /v2/parse, for a team or a fleet of workers (`docmill serve`), with the
 * engine pool's metrics and, over a Redis, the dashboard of every docmill queue in it. Everything is opened through
 * the composition root and closed in its order: the server stops taking requests before the engine behind it goes.
 *
 *   const server = await serve({ host: '127.0.0.1', port: 3002, apiKeys: ['a-long-random-key'] });
 *   process.on('SIGTERM', () => void server.close());
 */
import { availableParallelism } from 'node:os';
import { integerSetting } from '../config/numbers.js';
import { DEFAULT_TIMEOUT_MS } from '../contract/limits.js';
import type { JsonExtractor } from '../engine/json-format.js';
import { secrets } from '../logging/redact.js';
import { CompositionRoot } from './composition-root.js';
import type { CommonOptions } from './options.js';
import { processingSettingsFrom } from './processing-settings.js';

export interface ServeOptions extends CommonOptions {
  host: string;
  /** 0: any free port (see `url`). */
  port: number;
  /** Parses at once (the engine's threads); more wait briefly, then get 429. @default the number of cores */
  maxConcurrency?: number | undefined;
  /** The bearer keys accepted; none: no authentication. @default DOCMILL_SERVER_API_KEYS when `environment` gives it */
  apiKeys?: string[] | undefined;
  /** The OCR languages of every request (the contract has no such option). @default the PDF's declared language, else English */
  ocrLanguages?: string[] | undefined;
  /** The most tesseract workers a language reads with at once, up to one per thread (ApiOptions.ocrWorkers). @default 1 */
  ocrWorkers?: number | undefined;
  /** The `json` format's model. @default none: json is refused */
  jsonExtractor?: JsonExtractor | undefined;
  /** Serve the engine pool's Prometheus metrics on this port. @default none */
  metricsPort?: number | undefined;
  /**
   * The dashboard at /queues over every docmill queue in `redisUrl`, for holders of the keys. `true`: read-only;
   * `{ write: true }`: its retry, clean, promote and remove buttons work. @default none
   */
  dashboard?: boolean | { write?: boolean | undefined } | undefined;
  /** @default REDIS_URL from `environment` */
  redisUrl?: string | undefined;
  /** On close, how long the parses under way (and those queued for a thread) have to be answered. @default 30000 */
  drainMs?: number | undefined;
}

/** The contract's default parse timeout: a parse sent with default options is answered within it. */
const DEFAULT_DRAIN_MS = DEFAULT_TIMEOUT_MS;

export interface ServeHandle {
  /** The server's base URL (POST `${url}/v2/parse`). */
  url: string;
  /** Stops taking requests, answers those under way (`drainMs`), then closes the metrics, the dashboard and the engine. */
  close(): Promise<void>;
}

export async function serve(options: ServeOptions): Promise<ServeHandle> {
  const apiKeys = options.apiKeys ?? options.environment?.serverApiKeys ?? [];
  for (const key of apiKeys) secrets.add(key);
  const port = integerSetting(options.port, 'port', { min: 0, max: 65_535 });
  const maxConcurrency = options.maxConcurrency === undefined ? availableParallelism() : integerSetting(options.maxConcurrency, 'maxConcurrency');
  const metricsPort = options.metricsPort === undefined ? undefined : integerSetting(options.metricsPort, 'metricsPort', { min: 0, max: 65_535 });
  const { ocrLanguages } = processingSettingsFrom({ ocrLanguages: options.ocrLanguages });
  const root = new CompositionRoot(options);
  try {
    const engine = root.localEngine({ threads: maxConcurrency, ocrLanguages, ocrWorkers: options.ocrWorkers, jsonExtractor: options.jsonExtractor });
    const write = typeof options.dashboard === 'object' && Boolean(options.dashboard.write);
    // Opened before the server listens, so a Redis that cannot be reached fails the start instead of every page.
    const board = options.dashboard ? await root.redisDashboard({ redisUrl: options.redisUrl, write }) : undefined;
    const server = await root.parseServer({
      host: options.host,
      port,
      maxConcurrency,
      apiKeys,
      logger: root.logger,
      parse: (bytes, fileName, parseOptions) => engine.parseBytes(bytes, fileName, parseOptions),
      dashboard: board?.dashboard,
      drainMs: integerSetting(options.drainMs ?? DEFAULT_DRAIN_MS, 'drainMs', { min: 0 }),
    });
    if (metricsPort !== undefined) {
      await root.engineMetricsServer(engine.pool, metricsPort, () => (server.server.listening ? undefined : 'the parse server is not listening'));
    }
    root.logger.info(
      {
        url: `${server.url}/v2/parse`,
        auth: apiKeys.length > 0 ? `${apiKeys.length} key(s)` : 'off',
        maxConcurrency,
        ...(ocrLanguages ? { ocrLanguages: ocrLanguages.join('+') } : {}),
      },
      'docmill serve is listening',
    );
    if (board) {
      root.logger.info(
        { url: `${server.url}${board.dashboard.basePath}`, redis: board.target, write },
        apiKeys.length > 0 ? 'queue dashboard (send a key as a bearer header, or open it once with ?key=<key>)' : 'queue dashboard',
      );
    }
    return { url: server.url, close: () => root.close() };
  } catch (error) {
    await root.close();
    throw error;
  }
}
