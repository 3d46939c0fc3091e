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
import { DocmillMetrics } from '../../metrics/metrics.js';
import { startMetricsServer, type MetricsServer } from '../../metrics/metrics-server.js';

export interface ServeFlags {
  host: string;
  port: string;
  maxConcurrency?: string;
  auth: boolean;
  metricsPort?: string;
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
  const maxConcurrency = flags.maxConcurrency ? integerSetting(flags.maxConcurrency, '--max-concurrency') : availableParallelism();
  const engine = new LocalParseEngine({
    size: maxConcurrency,
    ...(environment.llm ? { jsonExtractor: openAiJsonExtractor(environment.llm) } : {}),
  });
  const metricsPort = flags.metricsPort === undefined ? undefined : integerSetting(flags.metricsPort, '--metrics-port', { min: 0, max: 65_535 });
  const running = await startParseServer({
    host: flags.host,
    port,
    maxConcurrency,
    apiKeys,
    logger: context.logger,
    parse: (bytes, fileName, options) => engine.parseBytes(bytes, fileName, options),
  });
  let metricsServer: MetricsServer | undefined;
  if (metricsPort !== undefined) {
    const metrics = new DocmillMetrics({ defaultMetrics: true });
    metrics.observePool(engine.pool);
    try {
      metricsServer = await startMetricsServer(metrics, metricsPort, context.logger);
    } catch (error) {
      await running.close();
      await engine.close();
      throw error;
    }
  }
  context.logger.info(
    { url: `${running.url}/v2/parse`, auth: apiKeys.length > 0 ? `${apiKeys.length} key(s)` : 'off', maxConcurrency },
    'docmill serve is listening',
  );
  await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
  context.logger.info('shutting down');
  await running.close();
  await metricsServer?.close();
  await engine.close();
  return EXIT.ok;
}
