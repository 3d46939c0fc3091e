/**
 * The docmill command line. `main` returns the exit code instead of exiting, so tests can run it in-process.
 */
import { Command, CommanderError } from 'commander';
import { createLogger } from '../app/logging.js';
import { defaultRuntimeSettings, dropInvalidRuntimeSettings, readEnvironment } from '../app/settings.js';
import type { CliContext } from './context.js';
import { EXIT } from './exit-codes.js';
import { reportError } from './report-error.js';
import { registerParseCommand } from './commands/parse.js';
import { registerRunCommand } from './commands/run.js';
import { registerEnqueueCommand } from './commands/enqueue.js';
import { registerWorkerCommands } from './commands/worker.js';
import { registerQueueAdminCommands } from './commands/queue-admin.js';
import { registerServeCommand } from './commands/serve.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

export interface MainIo {
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  env?: NodeJS.ProcessEnv;
}

export async function main(argv: string[], io: MainIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const env = io.env ?? process.env;
  const levelFromEnv = readEnvironment(env).logLevel as LogLevel | undefined;
  const level = argv.includes('--verbose') || argv.includes('-v') ? 'debug' : levelFromEnv && LOG_LEVELS.includes(levelFromEnv) ? levelFromEnv : 'info';
  const logger = createLogger({ level, destination: stderr });
  // Before any engine thread starts: LiteParse's native runtime would abort the process on it (config/native-runtime.ts).
  const dropped = dropInvalidRuntimeSettings(env);
  if (dropped) logger.warn({ variable: dropped.name, value: dropped.value }, `${dropped.name} is not a positive number of threads; ignored`);
  defaultRuntimeSettings(env);
  const interrupt = new AbortController();
  let exitCode: number = EXIT.ok;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
    logger.warn({ signal }, 'stopping; press Ctrl-C again to force');
    interrupt.abort(new Error(`received ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const context: CliContext = {
    stdin: io.stdin ?? process.stdin,
    stdout,
    stderr,
    env,
    logger,
    signal: interrupt.signal,
    setExitCode: (code) => {
      exitCode = code;
    },
  };
  const program = buildProgram(context, stdout, stderr);
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const report = reportError(error);
    stderr.write(`${report.text}\n`);
    return report.exitCode;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    logger.flush();
  }
}

/** The whole command tree; exported so tests can check what other files (docker-compose.yml) invoke. */
export function buildProgram(context: CliContext, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Command {
  const program = new Command()
    .name('docmill')
    .description('Turn documents into Markdown, per-page Markdown and layout blocks through the /v2/parse contract')
    .version('0.1.0')
    .option('-v, --verbose', 'log debug details')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => stdout.write(text),
      writeErr: (text) => stderr.write(text),
    })
    .showHelpAfterError('(run docmill --help for usage)');
  registerParseCommand(program, context);
  registerRunCommand(program, context);
  registerWorkerCommands(program, context);
  registerEnqueueCommand(program, context);
  registerQueueAdminCommands(program, context);
  registerServeCommand(program, context);
  return program;
}
