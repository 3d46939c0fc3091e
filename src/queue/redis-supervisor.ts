/**
 * Keeps docmill's embedded redis-server alive for as long as docmill lives, and no longer.
 *
 * The server runs in the foreground as docmill's child, in a session of its own (a Ctrl-C meant for docmill must not
 * stop the queue under the documents still finishing), and dies with docmill even when docmill is killed outright:
 * `setpriv --pdeathsig KILL` (util-linux) asks the kernel to kill it when its parent dies; where setpriv is missing,
 * a shell watchdog holding a pipe from docmill kills it when that pipe closes. If the server dies while docmill
 * runs, it is started again on the same state folder and socket: it reloads its append-only file, and the ioredis
 * connections reconnect by themselves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from './commonjs-packages.js';
import type { Logger } from 'pino';
import { RedisUnavailableError } from './redis-connection.js';

export interface RedisServerSpec {
  socket: string;
  stateDir: string;
  pidFile: string;
  logFile: string;
  /** redis-server's arguments (never `--daemonize yes`: the parent-death signal does not survive a fork). */
  args: string[];
}

/** Restarts allowed within `RESTART_WINDOW_MS` before docmill stops trying (a server that cannot stay up). */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

/**
 * Kills redis-server when the pipe from docmill (stdin) closes: docmill died. Exits with the server otherwise. The
 * pipe goes through fd 3 because a background job's stdin is /dev/null in a shell without job control.
 */
const WATCHDOG_SCRIPT = 'exec 3<&0; "$@" 3<&- & server=$!; (read -r _ <&3; kill -9 $server 2>/dev/null) & wait $server';

export class RedisSupervisor {
  #child: ChildProcess | undefined;
  #adoptedPid: number | undefined;
  #pidTimer: NodeJS.Timeout | undefined;
  #stopping = false;
  #restarting = false;
  #restartTimes: number[] = [];
  /** Whether setpriv ran here; false after it was found missing (the shell watchdog is used from then on). */
  #setpriv = process.platform === 'linux';
  readonly #restartListeners: Array<() => void> = [];

  private constructor(
    private readonly spec: RedisServerSpec,
    private readonly logger: Logger | undefined,
  ) {}

  /** Starts a server and supervises it. */
  static async start(spec: RedisServerSpec, logger?: Logger): Promise<RedisSupervisor> {
    const supervisor = new RedisSupervisor(spec, logger);
    await supervisor.#launch();
    return supervisor;
  }

  /**
   * Supervises a server an earlier docmill left running (daemonized, or orphaned): docmill cannot be its parent,
   * so its pid is polled; once it is gone, a server of our own takes its place.
   */
  static adopt(spec: RedisServerSpec, pid: number | undefined, logger?: Logger): RedisSupervisor {
    const supervisor = new RedisSupervisor(spec, logger);
    if (pid !== undefined) {
      supervisor.#adoptedPid = pid;
      supervisor.#pidTimer = setInterval(() => {
        if (processAlive(pid)) return;
        clearInterval(supervisor.#pidTimer);
        supervisor.#adoptedPid = undefined;
        void supervisor.#restart(`the redis-server (pid ${pid}) docmill adopted exited`);
      }, 1000);
      supervisor.#pidTimer.unref();
    }
    return supervisor;
  }

  /** Called after a server that died was started again (its append-only file reloaded). */
  onRestart(listener: () => void): void {
    this.#restartListeners.push(listener);
  }

  /** Shuts the server down (SHUTDOWN fsyncs the append-only file, so the next run resumes from here). */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#pidTimer);
    const child = this.#child;
    const exited = child && child.exitCode === null && child.signalCode === null ? onceExited(child) : Promise.resolve();
    const shutDown = await sendShutdown(this.spec.socket);
    if (!shutDown) {
      const pid = this.#adoptedPid ?? (await pidFromFile(this.spec.pidFile));
      if (pid !== undefined && processAlive(pid)) process.kill(pid, 'SIGTERM');
    }
    if (child) {
      const finished = await Promise.race([exited.then(() => true), delay(STOP_TIMEOUT_MS, false)]);
      if (!finished) killLaunched(child);
      child.stdin?.destroy();
    }
  }

  async #launch(): Promise<void> {
    await rm(this.spec.socket, { force: true });
    const [command, argv] = launchCommand(this.spec.args, this.#setpriv);
    const child = spawn(command, argv, { detached: true, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    const failed = new Promise<string | NodeJS.ErrnoException>((resolveFailure) => {
      child.once('error', (error: NodeJS.ErrnoException) => resolveFailure(error));
      child.once('exit', (code, signal) =>
        resolveFailure(code === 127 ? 'redis-server is not on PATH' : stderr.trim() || `exit ${signal ?? `code ${code}`}`),
      );
    });
    const answered = await Promise.race([answersWithin(this.spec.socket, START_TIMEOUT_MS), failed]);
    if (answered instanceof Error && answered.code === 'ENOENT' && this.#setpriv) {
      this.#setpriv = false;
      return this.#launch();
    }
    if (answered !== true) {
      killLaunched(child);
      const detail =
        answered instanceof Error ? answered.message : typeof answered === 'string' ? answered : `it did not answer within ${START_TIMEOUT_MS / 1000} s`;
      throw new RedisUnavailableError(`The embedded redis-server did not start on ${this.spec.socket} (${detail}); see ${this.spec.logFile}`);
    }
    // Neither the child nor its pipes may keep a finished docmill alive; the exit event still arrives while it runs.
    child.unref();
    (child.stderr as { unref?: () => void } | null)?.unref?.();
    (child.stdin as { unref?: () => void } | null)?.unref?.();
    child.stdin?.on('error', () => undefined);
    child.once('exit', (code, signal) => {
      // Ends the watchdog's reader, if any, which outlives a server that died on its own.
      child.stdin?.destroy();
      if (this.#child !== child) return;
      this.#child = undefined;
      if (!this.#stopping) void this.#restart(`the embedded redis-server exited (${signal ?? `code ${code}`})`);
    });
    this.#child = child;
    // stop() came while this server was starting: it found nothing to stop, so this one goes now.
    if (this.#stopping) killLaunched(child);
  }

  async #restart(reason: string): Promise<void> {
    if (this.#stopping || this.#restarting) return;
    this.#restarting = true;
    try {
      const now = Date.now();
      this.#restartTimes = [...this.#restartTimes.filter((time) => now - time < RESTART_WINDOW_MS), now];
      if (this.#restartTimes.length > MAX_RESTARTS) {
        this.logger?.error(
          { socket: this.spec.socket, log: this.spec.logFile },
          `${reason}; it exited ${MAX_RESTARTS} times within a minute, so docmill stops restarting it`,
        );
        return;
      }
      this.logger?.warn({ socket: this.spec.socket, stateDir: this.spec.stateDir }, `${reason}; restarting it from its append-only file`);
      for (let attempt = 1; attempt <= 3 && !this.#stopping; attempt++) {
        try {
          await this.#launch();
          this.logger?.info({ socket: this.spec.socket }, 'the embedded redis-server is running again');
          for (const listener of this.#restartListeners) listener();
          return;
        } catch (error) {
          this.logger?.warn({ err: error, attempt }, 'could not restart the embedded redis-server');
          await delay(500 * attempt);
        }
      }
      this.logger?.error({ log: this.spec.logFile }, 'the embedded redis-server could not be restarted');
    } finally {
      this.#restarting = false;
    }
  }
}

/**
 * The command that runs redis-server so that it dies with this process: setpriv's parent-death signal where
 * available, else the shell watchdog (its stdin is a pipe from docmill).
 */
export function launchCommand(args: string[], setpriv: boolean): [string, string[]] {
  if (setpriv) return ['setpriv', ['--pdeathsig', 'KILL', 'redis-server', ...args]];
  return ['/bin/sh', ['-c', WATCHDOG_SCRIPT, 'docmill-redis-watchdog', 'redis-server', ...args]];
}

/** Kills a launched server: the process itself (setpriv execs it), or the watchdog, whose closed pipe kills the server. */
function killLaunched(child: ChildProcess): void {
  child.kill('SIGKILL');
  child.stdin?.destroy();
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function pidFromFile(pidFile: string): Promise<number | undefined> {
  const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function onceExited(child: ChildProcess): Promise<void> {
  return new Promise((resolveExit) => child.once('exit', () => resolveExit()));
}

function probe(socket: string): Redis {
  const client = new Redis({ path: socket, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  client.on('error', () => undefined);
  return client;
}

export async function pings(socket: string): Promise<boolean> {
  if (!existsSync(socket)) return false;
  const client = probe(socket);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

async function answersWithin(socket: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await pings(socket)) return true;
    await delay(50);
  }
  return false;
}

async function sendShutdown(socket: string): Promise<boolean> {
  const client = probe(socket);
  try {
    await client.connect();
    // The reply never comes: the server closes the connection as it exits.
    await client.call('SHUTDOWN', 'NOSAVE').catch(() => undefined);
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
