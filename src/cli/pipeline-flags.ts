/**
 * Flags shared by the pipeline commands (run, watch, enqueue, worker, status, failed, resume).
 */
import { Option, type Command } from 'commander';

export interface ConnectionFlags {
  redis?: string;
  queue?: string;
  out?: string;
}

export interface ApiFlagValues {
  apiUrl?: string;
  apiKey?: string;
  ocrWorkers?: string;
}

export interface SourceFlags {
  include: string[];
  exclude: string[];
}

export interface S3Flags {
  s3Endpoint?: string;
  s3Region?: string;
  s3PathStyle?: boolean;
}

export interface RemovedFlags {
  removed: 'keep' | 'delete';
}

export interface EventFlags {
  events?: string;
  eventsQueue?: string;
  sqsEndpoint?: string;
  relistInterval: string;
}

export interface RedisWaitFlags {
  redisWait: string;
}

export interface WorkerFlags {
  concurrency: string;
  lockDuration?: string;
  attempts: string;
  splitPages?: string;
  metricsPort?: string;
  maxCredits?: string;
  /** false with --no-dashboard */
  dashboard: boolean;
  dashboardWrite?: boolean;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function addConnectionFlags(command: Command, { withOut }: { withOut: boolean }): Command {
  command
    .option('--redis <url>', 'Redis URL (env REDIS_URL); default: an embedded redis-server kept under <out>/_docmill/redis')
    .option('--queue <name>', 'queue name (default: docmill; run: derived from --out)');
  if (withOut) command.option('--out <dest>', 'output folder or s3://bucket/prefix');
  return command;
}

export function addApiFlags(command: Command): Command {
  return command
    .option('--api-url <url>', 'parse API base URL (env DOCMILL_API_URL, or FIRECRAWL_API_URL)')
    .option('--api-key <key>', 'parse API key (env DOCMILL_API_KEY, or FIRECRAWL_API_KEY)')
    .option('--ocr-workers <n>', 'local engine: most tesseract workers a language reads with at once, up to one per engine thread (default 1; a batch of scans reads on that many cores, each worker holds 100-150 MB)');
}

export function addSourceFlags(command: Command): Command {
  return command
    .option('--include <glob>', 'only files whose relative path matches (repeatable)', collect, [])
    .option('--exclude <glob>', 'skip files whose relative path matches (repeatable)', collect, []);
}

export function addS3Flags(command: Command): Command {
  return command
    .option('--s3-endpoint <url>', 'S3-compatible endpoint (MinIO, R2...); implies path-style addressing')
    .option('--s3-region <region>', 'S3 region (default: the AWS chain: AWS_REGION, config files...)')
    .option('--s3-path-style', 'path-style S3 addressing (http://endpoint/bucket/key)');
}

export function addWorkerFlags(command: Command): Command {
  return command
    .option('--concurrency <n>', 'documents in progress at once, and the most parse requests in flight', '8')
    .option('--attempts <n>', 'queue attempts for a document whose errors outlast the client retries', '4')
    .option('--max-credits <n>', 'credit budget of the queue: no document is sent once the credits used plus its estimate would pass n (the queue pauses; `docmill resume --max-credits` raises it)')
    .option('--split-pages <n>', 'parse a PDF with more pages in page ranges of at most n pages (default: the timeout / 500 ms, 60 at 30 s; a PDF over 50 MiB is always split)')
    .addOption(new Option('--lock-duration <ms>', 'job lock time to live (a dead worker\'s jobs move after it)').hideHelp(false))
    .option('--metrics-port <port>', 'serve Prometheus metrics on http://0.0.0.0:<port>/metrics, and a read-only queue dashboard on /queues')
    .option(
      '--dashboard-write',
      'let the /queues dashboard change the queue: its retry, clean, promote and remove buttons work for anyone who can reach the metrics port',
    )
    .option('--no-dashboard', 'no queue dashboard on the metrics port');
}

/** run only: workers and watchers wait for a lost Redis for as long as it takes (and say so every minute). */
export function addRedisWaitFlag(command: Command): Command {
  return command.option(
    '--redis-wait <seconds>',
    'how long to wait for Redis when it becomes unreachable mid-run before stopping with REDIS_UNAVAILABLE (exit 4)',
    '180',
  );
}

/** run, watch, enqueue: what becomes of the outputs of a source file that is removed. */
export function addRemovedFlag(command: Command): Command {
  return command.addOption(
    new Option(
      '--removed <action>',
      'outputs of a source file that is removed (deleted, renamed away, gone since the last run): keep them, or delete every output of it; the manifest records it either way',
    )
      .choices(['keep', 'delete'])
      .default('keep'),
  );
}

/** watch, enqueue --watch: read an S3 source's bucket notifications from a queue instead of polling. */
export function addEventFlags(command: Command): Command {
  return command
    .option(
      '--events <queue>',
      "S3 source: read the bucket's event notifications from this queue instead of polling: an SQS queue URL (S3 → SQS, → SNS → SQS, → EventBridge → SQS), or amqp://user:pass@host:5672/vhost?queue=<name> (MinIO, Ceph)",
    )
    .option('--events-queue <name>', 'with an amqp:// --events URL: the queue to consume')
    .option('--sqs-endpoint <url>', 'with an SQS --events URL: an SQS-compatible endpoint (env AWS_ENDPOINT_URL_SQS)')
    .option('--relist-interval <ms>', 'with --events: list the bucket anyway this often, for events a misconfigured notification lost (0: never)', '21600000');
}
