/**
 * pino loggers: JSON lines on stderr when it is not a terminal, readable lines when it is; every line passes
 * through the secret scrubber before it is written.
 */
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import type { PinoPretty as PrettyStream } from 'pino-pretty';
import { secrets as processSecrets, type SecretScrubber } from './redact.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** @default 'info' */
  level?: Level | 'silent';
  /** Where lines go. @default process.stderr */
  destination?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Human-readable output instead of JSON lines. @default destination.isTTY */
  pretty?: boolean;
  /** @default the process-wide scrubber */
  scrubber?: SecretScrubber;
}

/** Paths redacted structurally as well, so a header object logged by mistake shows the key's place but not its value. */
const REDACT_PATHS = [
  'apiKey',
  '*.apiKey',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
];

/**
 * pino-pretty is loaded only for a terminal: a service, a CI job or a pipe writes JSON lines and need not pay its
 * loading at every start (25 ms of a CLI start of 200 here).
 */
const requireModule = createRequire(import.meta.url);
function prettyStream(): typeof PrettyStream {
  return (requireModule('pino-pretty') as { PinoPretty: typeof PrettyStream }).PinoPretty;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const target = options.destination ?? process.stderr;
  const scrubber = options.scrubber ?? processSecrets;
  const pretty = options.pretty ?? Boolean(target.isTTY);
  const sink: NodeJS.WritableStream = pretty
    ? prettyStream()({ destination: target, colorize: Boolean(target.isTTY), translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', sync: true })
    : target;
  const destination: DestinationStream = {
    write: (line: string) => {
      sink.write(scrubber.scrub(line));
    },
  };
  return pino(
    {
      name: 'docmill',
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
    },
    destination,
  );
}
