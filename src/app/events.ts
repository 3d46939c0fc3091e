/**
 * The progress of a run, a worker or an enqueue, offered two ways: as an EventEmitter (`handle.on('document', …)`)
 * and as an async iterator (`for await (const event of handle)`). Events are kept for an iterator only once one
 * exists, so a caller that only awaits `done` does not accumulate a million events in memory.
 */
import { EventEmitter } from 'node:events';
import type { DocumentOutcome } from '../pipeline/outcome.js';
import type { ManifestEntry } from '../store/output-store.js';

export type { DocumentOutcome };

export type PipelineEvent =
  /** A document was converted, skipped or failed, with the manifest line it added. */
  | { type: 'document'; outcome: DocumentOutcome }
  /** A listed file that is not converted at all (an extension outside the contract's list, a dangling link...). */
  | { type: 'not-converted'; path: string; reason: string; extension?: string | undefined; record?: ManifestEntry | undefined }
  /** Files went into the queue. */
  | { type: 'queued'; count: number }
  /** The listing of the source finished. */
  | { type: 'listed'; queued: number }
  /** What the pipeline is waiting for, or '' when it is not waiting (paused for credits, waiting for locks...). */
  | { type: 'status'; status: string };

export type PipelineEventType = PipelineEvent['type'];

export class PipelineEvents extends EventEmitter implements AsyncIterable<PipelineEvent> {
  readonly #iterators = new Set<{ buffer: PipelineEvent[]; wake: (() => void) | undefined }>();
  #ended = false;

  publish(event: PipelineEvent): void {
    for (const iterator of this.#iterators) {
      iterator.buffer.push(event);
      iterator.wake?.();
    }
    // An 'error' event would throw without a listener; these never are.
    this.emit(event.type, event);
    this.emit('event', event);
  }

  /** No more events: iterators finish once they have read what is buffered. */
  end(): void {
    this.#ended = true;
    for (const iterator of this.#iterators) iterator.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<PipelineEvent> {
    const iterator: { buffer: PipelineEvent[]; wake: (() => void) | undefined } = { buffer: [], wake: undefined };
    this.#iterators.add(iterator);
    try {
      for (;;) {
        const next = iterator.buffer.shift();
        if (next) {
          yield next;
          continue;
        }
        if (this.#ended) return;
        await new Promise<void>((resolve) => (iterator.wake = resolve));
        iterator.wake = undefined;
      }
    } finally {
      this.#iterators.delete(iterator);
    }
  }
}
