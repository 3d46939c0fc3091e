/**
 * One document of a group job (GROUP_JOB_NAME, several small documents in one BullMQ job): it answers the calls the
 * steps make on a job for this document alone. Its data lives in memory for the group's start; what would move a
 * document's own job (a deferral until a time, a parked queue, page ranges that must be its children) is noted here
 * instead, and the group then queues the document in a job of its own (DocumentProcessor, ./document-processor.ts).
 */
import type { Job } from 'bullmq';
import { JOB_NAME, type ParseJobData } from '../queue/job-data.js';
import type { PipelineJob } from './job-context.js';
import { LeaveGroupError } from './job-control.js';

/** Why and when a grouped document leaves its group for a job of its own. */
export interface Departure {
  why: string;
  /** The time it may start again (a deferral); absent: at once. */
  delayUntil?: number;
}

export class GroupMemberJob implements PipelineJob {
  readonly name = JOB_NAME;
  readonly parent = undefined;
  data: ParseJobData;
  departure: Departure | undefined;

  /**
   * Its own and its group's: who holds its content lock and credit reservation. A job of the document's own (queued
   * by a watcher while the group converts it) is another holder, so the two never convert it at once.
   */
  readonly id: string;

  constructor(
    private readonly group: Job,
    /** The id the document's own job has: the one it is moved out under. */
    readonly documentId: string,
    data: ParseJobData,
  ) {
    this.id = `${documentId}-${group.id ?? ''}`;
    this.data = data;
  }

  get opts(): Job['opts'] {
    return this.group.opts;
  }

  get timestamp(): number {
    return this.group.timestamp;
  }

  get attemptsMade(): number {
    return this.group.attemptsMade;
  }

  get attemptsStarted(): number {
    return this.group.attemptsStarted;
  }

  get queueQualifiedName(): string {
    return this.group.queueQualifiedName;
  }

  async updateData(data: ParseJobData): Promise<void> {
    this.data = data;
  }

  async moveToDelayed(timestamp: number): Promise<void> {
    this.departure = { why: 'deferred', delayUntil: timestamp };
  }

  async moveToWait(): Promise<number> {
    this.departure = { why: 'parked' };
    return 0;
  }

  async moveToWaitingChildren(): Promise<boolean> {
    throw new LeaveGroupError('waits for page ranges');
  }

  async getDependenciesCount(): Promise<never> {
    throw new LeaveGroupError('has page ranges');
  }

  async getIgnoredChildrenFailures(): Promise<never> {
    throw new LeaveGroupError('has page ranges');
  }
}
