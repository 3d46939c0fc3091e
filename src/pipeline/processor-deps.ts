/** What a DocumentProcessor is built with, and what its steps share in one process. */
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { ParseApiError } from '../backend/errors.js';
import type { RunBlockedError } from '../errors/run-blocked.js';
import type { ParseBackend } from '../backend/parse-backend.js';
import type { DocmillMetrics } from '../metrics/metrics.js';
import type { QueueControl } from '../queue/queue-control.js';
import type { Source } from '../sources/source.js';
import type { OutputStore } from '../store/output-store.js';
import type { ParseGate } from './api-gate.js';
import type { BudgetReleases } from './budget-releases.js';
import type { DocumentOutcome } from './outcome.js';
import type { SendingState } from './sending.js';

export interface ProcessorDeps {
  queue: Queue;
  control: QueueControl;
  store: OutputStore;
  backend: ParseBackend;
  gate: ParseGate;
  /** The source named in a job (a promise where building it loads a client library: S3). */
  sourceFor: (location: string) => Source | Promise<Source>;
  logger: Logger;
  metrics?: DocmillMetrics | undefined;
  /** Told of every finished document (the run's progress display). */
  onOutcome?: (outcome: DocumentOutcome) => void;
  /**
   * Told when this process stops sending: the API rejected the key (401/403), or nothing can be converted until
   * repaired (RunBlockedError: the local engine's threads cannot start, the output takes no more writes). The caller
   * stops its workers.
   */
  onSendingStopped?: (error: ParseApiError | RunBlockedError) => void;
  /** Told when the queue is paused for exhausted credits. */
  onPaused?: (error: ParseApiError) => void;
  /** Told of every parse request made (retries included): the run's count of what the API received. */
  onRequest?: () => void;
  /** The content lock's time to live (renewed while held); a crashed holder's lock frees after this. @default 30000 */
  contentLockMs?: number;
  /** A PDF with more pages is parsed in page ranges of at most this many (as is one over 50 MiB). @default timeout / 500 ms */
  splitPages?: number | undefined;
  /** Documents of group jobs converted at once in this process (each group job holds several). @default 8 */
  documentsAtOnce?: number | undefined;
}

/** The processor's deps, plus what its jobs share in this process. */
export interface StepDeps extends ProcessorDeps {
  sending: SendingState;
  releases: BudgetReleases;
}
