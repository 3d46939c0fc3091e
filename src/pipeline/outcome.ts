/** What happened to one document, as the run's progress display, metrics and the manifest see it. */
import type { ManifestEntry, ManifestStatus } from '../store/output-store.js';

export interface DocumentOutcome {
  status: ManifestStatus;
  relativePath: string;
  /** Parse requests made for this document by this job (429s included). */
  requests: number;
  numPages?: number | undefined;
  creditsUsed?: number | undefined;
  durationMs: number;
  error?: { status?: number | undefined; code: string; message: string } | undefined;
  reason?: string | undefined;
  /** A document converted by this job whose parse warned (DocumentState.warning). */
  warning?: string | undefined;
  /** The line this outcome added to the manifest. */
  record?: ManifestEntry | undefined;
}
