/** What an S3 event watch reports, as metrics and log lines. */
import type { Logger } from 'pino';
import type { DocmillMetrics } from '../metrics/metrics.js';
import type { EventObserver } from '../sources/events/s3-event-watch.js';

export function eventObserver(logger: Logger, metrics?: DocmillMetrics): EventObserver {
  return {
    received: (envelope, count) => metrics?.eventsReceived.inc({ envelope }, count),
    enqueued: (envelope, kind, lagMs) => {
      metrics?.eventsEnqueued.inc({ envelope, kind });
      if (lagMs !== undefined) metrics?.eventLag.observe(lagMs / 1000);
    },
    ignored: (envelope, reason, event) => {
      metrics?.eventsIgnored.inc({ envelope, reason });
      const fields = { envelope, reason, ...(event ? { bucket: event.bucket, key: event.key, event: event.name } : {}) };
      if (reason === 'gone') logger.info(fields, 'event for an object that no longer exists: nothing to convert');
      else logger.debug(fields, 'event ignored');
    },
    // Once per message: a queue without a redrive policy hands it back every visibility timeout.
    unreadable: (messageId, reason) => {
      metrics?.eventsUnreadable.inc();
      logger.warn({ messageId, reason }, "event message unreadable: left to the queue's redrive policy");
    },
    unreadableRedelivered: () => metrics?.eventsUnreadableRedelivered.inc(),
    noRedrivePolicy: (queue) =>
      logger.warn({ events: queue }, 'the event queue has no redrive policy: a message docmill cannot read comes back every visibility timeout, for ever; give it a dead-letter queue'),
  };
}
