/**
 * `docmill serve`: the local engine behind POST /v2/parse, for a team or a fleet of workers.
 */
import { availableParallelism } from 'node:os';
import { LocalParseEngine } from '../../engine/local-engine.js';
import { secrets } from '../../logging/redact.js';
import { startParseServer } from '../../server/parse-server.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';
import { integerSetting } from '../../config/numbers.js';
import { openAiJsonExtractor } from '../../llm/openai-json-extractor.js';
import { environmentOf } from '../library-options.js';
import { ocrLanguagesFromFlags } from '../parse-flags.js';
import { processingSettingsFrom } from '../../app/processing-settings.js';
import { openRedisDashboard } from '../../app/queue-dashboard.js';
import { DocmillMetrics } from '../../metrics/metrics.js';
import { startMetricsServer, type MetricsServer } from '../../metrics/metrics-server.js';

export interface ServeFlags {
  host: string;
  port: string;
  maxConcurrency?: string;
  auth: boolean;
  /** The engine's OCR languages: the contract has no such option, so they are the server's, for every request. */
  ocrLang?: string;
  metricsPort?: string;
  dashboard?: boolean;
  dashboardWrite?: boolean;
  redis?: string;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i;


export async function serveCommand(flags: ServeFlags, context: CliContext): Promise<number> {
  const environment = environmentOf(context);
  const apiKeys = environment.serverApiKeys;
  for (const key of apiKeys) secrets.add(key);
  if (apiKeys.length === 0 && !LOOPBACK.test(flags.host) && flags.auth) {
    throw new UsageError(
      `refusing to serve on ${flags.host} without authentication: set DOCMILL_SERVER_API_KEYS=key1,key2, ` +
        'or pass --no-auth if this network is trusted',
    );
  }
  const port = integerSetting(flags.port, '--port', { min: 0, max: 65_535 });
  const wantsDashboard = Boolean(flags.dashboard || flags.dashboardWrite);
  if (wantsDashboard && !(flags.redis ?? environment.redisUrl)) {
    throw new UsageError('serve --dashboard shows the queues of a Redis: pass --redis redis://host:6379 or set REDIS_URL');
  }
  const maxConcurrency = flags.maxConcurrency ? integerSetting(flags.maxConcurrency, '--max-concurrency') : availableParallelism();
  const { ocrLanguages } = processingSettingsFrom({ ocrLanguages: ocrLanguagesFromFlags(flags) });
  const engine = new LocalParseEngine({
    size: maxConcurrency,
    ...(ocrLanguages ? { ocrLanguages } : {}),
    ...(environment.llm ? { jsonExtractor: openAiJsonExtractor(environment.llm) } : {}),
  });
  const metricsPort = flags.metricsPort === undefined ? undefined : integerSetting(flags.metricsPort, '--metrics-port', { min: 0, max: 65_535 });
  // Opened before the server listens, so a Redis that cannot be reached fails the start instead of every page.
  const board = wantsDashboard
    ? await openRedisDashboard({ redisUrl: flags.redis, environment, write: Boolean(flags.dashboardWrite), logger: context.logger }).catch(
        async (error: unknown) => {
          await engine.close();
          throw error;
        },
      )
    : undefined;
  const running = await startParseServer({
    host: flags.host,
    port,
    maxConcurrency,
    apiKeys,
    logger: context.logger,
    parse: (bytes, fileName, options) => engine.parseBytes(bytes, fileName, options),
    dashboard: board?.dashboard,
  });
  let metricsServer: MetricsServer | undefined;
  if (metricsPort !== undefined) {
    const metrics = new DocmillMetrics({ defaultMetrics: true });
    metrics.observePool(engine.pool);
    try {
      metricsServer = await startMetricsServer(metrics, metricsPort, context.logger);
    } catch (error) {
      await running.close();
      await board?.close();
      await engine.close();
      throw error;
    }
  }
  context.logger.info(
    {
      url: `${running.url}/v2/parse`,
      auth: apiKeys.length > 0 ? `${apiKeys.length} key(s)` : 'off',
      maxConcurrency,
      ...(ocrLanguages ? { ocrLanguages: ocrLanguages.join('+') } : {}),
    },
    'docmill serve is listening',
  );
  if (board) {
    context.logger.info(
      { url: `${running.url}${board.dashboard.basePath}`, redis: board.target, write: Boolean(flags.dashboardWrite) },
      apiKeys.length > 0 ? 'queue dashboard (send a key as a bearer header, or open it once with ?key=<key>)' : 'queue dashboard',
    );
  }
  await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
  context.logger.info('shutting down');
  await running.close();
  await metricsServer?.close();
  await board?.close();
  await engine.close();
  return EXIT.ok;
}
