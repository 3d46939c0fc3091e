/**
 * Progress of a run: a line redrawn in place on a terminal (files done/skipped/failed, pages, rate, ETA), and a
 * log line every interval otherwise.
 */
import type { Logger } from 'pino';
import type { DocumentOutcome } from '../pipeline/outcome.js';

export interface ProgressCounts {
  listed: number;
  listingDone: boolean;
  converted: number;
  skipped: number;
  failed: number;
  pages: number;
  credits: number;
  requests: number;
}

export class Progress {
  readonly counts: ProgressCounts = {
    listed: 0,
    listingDone: false,
    converted: 0,
    skipped: 0,
    failed: 0,
    pages: 0,
    credits: 0,
    requests: 0,
  };
  #timer: NodeJS.Timeout | undefined;
  #status = '';
  readonly #startedAt = Date.now();

  constructor(
    private readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
    private readonly logger: Logger,
    private readonly intervalMs = 10_000,
  ) {}

  get done(): number {
    return this.counts.converted + this.counts.skipped + this.counts.failed;
  }

  start(): void {
    const tty = Boolean(this.stream.isTTY);
    this.#timer = setInterval(() => (tty ? this.#draw() : this.#log()), tty ? 250 : this.intervalMs);
    this.#timer.unref();
  }

  record(outcome: DocumentOutcome): void {
    this.counts[outcome.status]++;
    this.counts.pages += outcome.numPages ?? 0;
    this.counts.credits += outcome.creditsUsed ?? 0;
    this.counts.requests += outcome.requests;
  }

  /** A status shown after the counts (paused, stopping...). */
  setStatus(status: string): void {
    this.#status = status;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    if (this.stream.isTTY) this.stream.write('\r\x1b[2K');
  }

  rate(): number {
    const seconds = (Date.now() - this.#startedAt) / 1000;
    return seconds > 0 ? this.done / seconds : 0;
  }

  line(): string {
    const { listed, listingDone, converted, skipped, failed, pages } = this.counts;
    const total = listingDone ? `${listed}` : `${listed}+`;
    const rate = this.rate();
    const remaining = listed - this.done;
    const eta = listingDone && rate > 0 && remaining > 0 ? ` · ETA ${formatDuration(remaining / rate)}` : '';
    const bar = listingDone && listed > 0 ? `${renderBar(this.done / listed)} ` : '';
    const status = this.#status ? ` · ${this.#status}` : '';
    return `${bar}${this.done}/${total} files · ${converted} converted · ${skipped} skipped · ${failed} failed · ${pages} pages · ${rate.toFixed(1)} files/s${eta}${status}`;
  }

  #draw(): void {
    const width = this.stream.columns ?? 120;
    this.stream.write(`\r\x1b[2K${this.line().slice(0, width - 1)}`);
  }

  #log(): void {
    this.logger.info({ ...this.counts, rate: Number(this.rate().toFixed(2)), status: this.#status || undefined }, 'progress');
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
