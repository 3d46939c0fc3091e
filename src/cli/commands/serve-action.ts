/**
 * `docmill serve`: the library's `serve` (the local engine behind POST /v2/parse, for a team or a fleet of workers)
 * until a signal.
 */
import { jsonExtractorFrom } from '../../app/backends.js';
import { serve } from '../../app/serve.js';
import { integerSetting } from '../../app/settings.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';
import { commonOptions, environmentOf } from '../library-options.js';
import { ocrLanguagesFromFlags } from '../parse-flags.js';

export interface ServeFlags {
  host: string;
  port: string;
  maxConcurrency?: string;
  auth: boolean;
  /** The engine's OCR languages: the contract has no such option, so they are the server's, for every request. */
  ocrLang?: string;
  ocrWorkers?: string;
  metricsPort?: string;
  dashboard?: boolean;
  dashboardWrite?: boolean;
  redis?: string;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i;

export async function serveCommand(flags: ServeFlags, context: CliContext): Promise<number> {
  const environment = environmentOf(context);
  const apiKeys = environment.serverApiKeys;
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
  const server = await serve({
    ...commonOptions(context, environment),
    host: flags.host,
    port,
    apiKeys,
    maxConcurrency: flags.maxConcurrency ? integerSetting(flags.maxConcurrency, '--max-concurrency') : undefined,
    ocrLanguages: ocrLanguagesFromFlags(flags),
    ocrWorkers: flags.ocrWorkers === undefined ? undefined : integerSetting(flags.ocrWorkers, '--ocr-workers'),
    jsonExtractor: jsonExtractorFrom(environment),
    metricsPort: flags.metricsPort === undefined ? undefined : integerSetting(flags.metricsPort, '--metrics-port', { min: 0, max: 65_535 }),
    dashboard: wantsDashboard ? { write: Boolean(flags.dashboardWrite) } : false,
    redisUrl: flags.redis,
  });
  await new Promise<void>((resolve) => {
    if (context.signal.aborted) return resolve();
    context.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  context.logger.info('shutting down');
  await server.close();
  return EXIT.ok;
}
