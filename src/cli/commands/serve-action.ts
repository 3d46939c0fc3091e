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
import { positiveInteger } from '../worker-settings.js';

export interface ServeFlags {
  host: string;
  port: string;
  maxConcurrency?: string;
  auth: boolean;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i;


export async function serveCommand(flags: ServeFlags, context: CliContext): Promise<number> {
  const apiKeys = (context.env.DOCMILL_SERVER_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  for (const key of apiKeys) secrets.add(key);
  if (apiKeys.length === 0 && !LOOPBACK.test(flags.host) && flags.auth) {
    throw new UsageError(
      `refusing to serve on ${flags.host} without authentication: set DOCMILL_SERVER_API_KEYS=key1,key2, ` +
        'or pass --no-auth if this network is trusted',
    );
  }
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a port number, not "${flags.port}"`);
  const maxConcurrency = flags.maxConcurrency ? positiveInteger(flags.maxConcurrency, '--max-concurrency') : availableParallelism();
  const engine = new LocalParseEngine({ size: maxConcurrency });
  const running = await startParseServer({
    host: flags.host,
    port,
    maxConcurrency,
    apiKeys,
    logger: context.logger,
    parse: (bytes, fileName, options) => engine.parseBytes(bytes, fileName, options),
  });
  context.logger.info(
    { url: `${running.url}/v2/parse`, auth: apiKeys.length > 0 ? `${apiKeys.length} key(s)` : 'off', maxConcurrency },
    'docmill serve is listening',
  );
  await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
  context.logger.info('shutting down');
  await running.close();
  await engine.close();
  return EXIT.ok;
}
