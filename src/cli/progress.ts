/**
 * Progress of a run on stderr. On a terminal: a line redrawn in place at the bottom (files done/skipped/failed,
 * pages, rate, ETA), with each failure printed above it as one line (file, code, message). Otherwise: a JSON log
 * line every interval (failures are logged as they happen by the worker).
 */
import type { DocumentOutcome } from '../app/events.js';
import { secrets, type Logger } from '../app/logging.js';
import type { SummaryCounter } from '../app/summary.js';

type ProgressStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

export class Progress {
  #timer: NodeJS.Timeout | undefined;
  #status = '';
  #listingDone = false;
  readonly #startedAt = Date.now();

  constructor(
    private readonly stream: ProgressStream,
    private readonly logger: Logger,
    readonly counter: SummaryCounter,
    private readonly intervalMs = 10_000,
  ) {}

  get #tty(): boolean {
    return Boolean(this.stream.isTTY);
  }

  start(): void {
    this.#timer = setInterval(() => (this.#tty ? this.#draw() : this.#log()), this.#tty ? 250 : this.intervalMs);
    this.#timer.unref();
  }

  /** A document finished; a failure gets its own line above the progress line on a terminal. */
  document(outcome: DocumentOutcome): void {
    if (outcome.status !== 'failed' || !this.#tty) return;
    const error = outcome.error;
    const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
    const line = `failed  ${oneLine(outcome.relativePath)}  ${error?.code ?? 'UNKNOWN'}  ${oneLine(error?.message ?? '')}`;
    const width = this.stream.columns ?? 160;
    this.stream.write(`\r\x1b[2K${secrets.scrub(line).slice(0, Math.max(40, width - 1))}\n`);
    this.#draw();
  }

  listingDone(): void {
    this.#listingDone = true;
  }

  /** A status shown after the counts (paused, stopping...). */
  setStatus(status: string): void {
    this.#status = status;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#tty) this.stream.write('\r\x1b[2K');
  }

  rate(): number {
    const seconds = (Date.now() - this.#startedAt) / 1000;
    return seconds > 0 ? this.counter.done / seconds : 0;
  }

  line(): string {
    const { queued, converted, skipped, failed, pages } = this.counter.counts;
    const done = this.counter.done;
    const total = this.#listingDone ? `${queued}` : `${queued}+`;
    const rate = this.rate();
    const remaining = queued - done;
    const eta = this.#listingDone && rate > 0 && remaining > 0 ? ` · ETA ${formatDuration(remaining / rate)}` : '';
    const bar = this.#listingDone && queued > 0 ? `${renderBar(done / queued)} ` : '';
    const status = this.#status ? ` · ${this.#status}` : '';
    return `${bar}${done}/${total} files · ${converted} converted · ${skipped} skipped · ${failed} failed · ${pages} pages · ${rate.toFixed(1)} files/s${eta}${status}`;
  }

  #draw(): void {
    if (!this.#timer) return;
    const width = this.stream.columns ?? 120;
    this.stream.write(`\r\x1b[2K${this.line().slice(0, width - 1)}`);
  }

  #log(): void {
    this.logger.info(
      { ...this.counter.counts, listingDone: this.#listingDone, rate: Number(this.rate().toFixed(2)), status: this.#status || undefined },
      'progress',
    );
  }
}

function renderBar(fraction: number): string {
  const width = 20;
  const filled = Math.max(0, Math.min(width, Math.round(fraction * width)));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
