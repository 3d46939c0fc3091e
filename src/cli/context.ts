import type { Logger } from '../app/logging.js';

/** What every command gets from the program: streams, environment, logger, a signal for Ctrl-C. */
export interface CliContext {
  /** Read by `parse -` only. @default process.stdin */
  stdin?: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** Aborted on the first SIGINT/SIGTERM. */
  signal: AbortSignal;
  setExitCode(code: number): void;
}
