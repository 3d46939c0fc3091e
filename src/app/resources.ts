/**
 * What a pipeline opened, closed in the reverse order of opening. Opening is a sequence of steps that can each
 * fail (Redis down, a bad S3 endpoint, a port in use): whatever was opened before the failure is closed before the
 * error goes on, so a failed start leaves no server, connection or thread behind.
 */
import type { Logger } from 'pino';

export class Resources {
  readonly #closers: { name: string; close: () => Promise<void> | void }[] = [];
  #closed = false;

  constructor(private readonly logger?: Logger) {}

  /** Registers `value` to be closed with `close`, and returns it. */
  add<T>(name: string, value: T, close: (value: T) => Promise<void> | void): T {
    this.#closers.push({ name, close: () => close(value) });
    return value;
  }

  /** Closes everything, newest first; one failure does not keep the others open. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const { name, close } of this.#closers.reverse()) {
      try {
        await close();
      } catch (error) {
        this.logger?.warn({ err: error, resource: name }, 'closing failed');
      }
    }
  }
}

/** Runs `open` against a fresh Resources; if it throws, closes what it had opened and rethrows. */
export async function openAll<T>(logger: Logger | undefined, open: (resources: Resources) => Promise<T>): Promise<T & { resources: Resources }> {
  const resources = new Resources(logger);
  try {
    const opened = await open(resources);
    return Object.assign(opened as object, { resources }) as T & { resources: Resources };
  } catch (error) {
    await resources.close();
    throw error;
  }
}
