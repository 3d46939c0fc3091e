import { describe, expect, it } from 'vitest';
import { documentsInJob, groupJobIdFor, type ParseJobData } from '../../src/queue/job-data.js';
import { groupDocuments } from '../../src/queue/producer.js';

function document(name: string, size: number) {
  const data: ParseJobData = { v: 1, source: '/src', uri: `/src/${name}`, relativePath: name, size, changeToken: 't', optionsFingerprint: 'f' };
  return { id: `id-${name}`, data };
}

const names = (jobs: ReturnType<typeof groupDocuments>) => jobs.map((job) => job.map((one) => one.data.relativePath));

describe('groupDocuments', () => {
  const grouping = { maxFiles: 3, maxBytes: 1000, maxFileBytes: 500 };

  it('groups small files in listing order, at most maxFiles and maxBytes to a job', () => {
    const jobs = groupDocuments(['a', 'b', 'c', 'd', 'e'].map((name) => document(name, 100)), grouping);
    expect(names(jobs)).toEqual([['a', 'b', 'c'], ['d', 'e']]);
    const byBytes = groupDocuments([document('a', 400), document('b', 400), document('c', 400)], grouping);
    expect(names(byBytes)).toEqual([['a', 'b'], ['c']]);
  });

  it('gives each file at or over the threshold a job of its own, and one marked alone too', () => {
    const jobs = groupDocuments([document('a', 10), document('big', 500), document('b', 10), { ...document('c', 10), alone: true }, document('d', 10)], grouping);
    expect(names(jobs)).toEqual([['big'], ['c'], ['a', 'b', 'd']]);
  });

  it('groups nothing when grouping is off', () => {
    expect(names(groupDocuments([document('a', 1), document('b', 1)], false))).toEqual([['a'], ['b']]);
  });

  it('names a group by its documents and says in its id how many they are', () => {
    const id = groupJobIdFor(['x', 'y', 'z']);
    expect(documentsInJob(id)).toBe(3);
    expect(groupJobIdFor(['x', 'y', 'z'])).toBe(id);
    expect(groupJobIdFor(['x', 'z', 'y'])).not.toBe(id);
    expect(documentsInJob('0123456789abcdef0123456789abcdef01234567')).toBe(1);
  });
});
