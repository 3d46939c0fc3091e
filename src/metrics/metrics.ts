/**
 * Prometheus metrics: documents by outcome, pages, credits, parse requests by status, throttling, and the
 * adaptive API concurrency. One registry per process; `docmill worker --metrics-port` serves it.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export class DocmillMetrics {
  readonly registry = new Registry();
  readonly documents = new Counter({
    name: 'docmill_documents_total',
    help: 'Documents finished, by status (converted, skipped, failed)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly pages = new Counter({ name: 'docmill_pages_total', help: 'Pages parsed', registers: [this.registry] });
  readonly credits = new Counter({
    name: 'docmill_credits_used_total',
    help: 'Credits the parse API reported as used (metadata.creditsUsed)',
    registers: [this.registry],
  });
  readonly requests = new Counter({
    name: 'docmill_parse_requests_total',
    help: 'Parse requests by HTTP status (0 when no response arrived)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly throttled = new Counter({
    name: 'docmill_throttled_total',
    help: '429 responses by kind (concurrency, rate)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly queuedByApi = new Counter({
    name: 'docmill_api_queued_total',
    help: 'Requests the API reported as held in its concurrency queue (metadata.concurrencyLimited)',
    registers: [this.registry],
  });
  readonly apiConcurrency = new Gauge({
    name: 'docmill_api_concurrency_limit',
    help: 'Current adaptive limit on parse requests in flight from this process',
    registers: [this.registry],
  });
  readonly failures = new Counter({
    name: 'docmill_failures_total',
    help: 'Failed documents by error code',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'docmill_document_duration_seconds',
    help: 'Time from job start to outputs written',
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'docmill_' });
  }
}
