/**
 * `docmill serve`: its flags; the server (serve-action.ts) loads on use.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import type { ServeFlags } from './serve-action.js';

export function registerServeCommand(program: Command, context: CliContext): void {
  program
    .command('serve')
    .description('serve POST /v2/parse on the local engine (keys from DOCMILL_SERVER_API_KEYS)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on', '3002')
    .option('--max-concurrency <n>', 'parses at once (default: the number of cores); more wait briefly, then get 429')
    .option('--ocr-lang <codes>', 'languages OCR reads scans in: deu+eng or deu,eng (each needs @tesseract.js-data/<code>); default: the PDF\'s declared language, else English')
    .option('--ocr-workers <n>', 'most tesseract workers a language reads with at once, up to one per thread (default 1; a batch of scans reads on that many cores, each worker holds 100-150 MB)')
    .option('--no-auth', 'allow a non-loopback --host without DOCMILL_SERVER_API_KEYS (anyone who can reach it can parse)')
    .option('--dashboard', 'serve a read-only queue dashboard on /queues over every docmill queue in --redis, for holders of the keys')
    .option('--dashboard-write', 'as --dashboard, and its retry, clean, promote and remove buttons change the queues')
    .option('--redis <url>', 'the Redis whose queues --dashboard shows (env REDIS_URL)')
    .option('--metrics-port <port>', "serve Prometheus metrics (the engine pool's busy threads and queued documents) on http://0.0.0.0:<port>/metrics")
    .action(async (flags: ServeFlags) => context.setExitCode(await (await import('./serve-action.js')).serveCommand(flags, context)));
}
