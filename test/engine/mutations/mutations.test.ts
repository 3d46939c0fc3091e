/**
 * Damaged documents, as a batch meets them: a seeded set of mutants of the corpus in every format (mutate.ts),
 * converted by `run` on the embedded local engine, held to the campaign's guarantees (campaign.ts): no crash, none
 * lost, each converted or failed with a precise code, no document tried more often than the rules allow, nothing
 * written outside the output folder, no XXE content in an output. The long run is bench/mutations.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteQueueKeys, SHARED_REDIS_URL } from '../../helpers/docmill-cli.js';
import { makeTempDir, removeTempDir } from '../../helpers/temp-files.js';
import { outcomeKey, runCampaign } from './campaign.js';
import { MUTATIONS } from './mutate.js';

const SEED = 20261123;
const COUNT = 300;
const queue = `mutations-${randomUUID()}`;
let workDir: string | undefined;

afterAll(async () => {
  await deleteQueueKeys(queue);
  await removeTempDir(workDir);
});

describe('a batch of damaged documents', () => {
  it(`${COUNT} mutants of the corpus: none lost, each converted or failed with a code, tried as the rules allow, nothing written outside the output`, async () => {
    workDir = await makeTempDir();
    const result = await runCampaign({
      seed: SEED,
      count: COUNT,
      workDir,
      threads: 2,
      redisUrl: SHARED_REDIS_URL,
      queue,
      // The long fixtures (a 2.8 MB deck) are left to the bench; OCR is too, so that the test stays well under a minute.
      maxFixtureBytes: 600_000,
      parseOptions: { parsers: [{ type: 'pdf', mode: 'fast' }] },
    });
    expect(result.problems).toEqual([]);
    expect(result.outcomes).toHaveLength(COUNT);
    // Every format and every mutation took part, and the mutants did damage: both outcomes occur.
    expect(new Set(result.outcomes.map((outcome) => outcome.mutant.mutation))).toEqual(new Set(MUTATIONS));
    expect(new Set(result.outcomes.map((outcome) => outcome.mutant.origin.split('/')[0])).size).toBeGreaterThanOrEqual(20);
    const keys = result.outcomes.map(outcomeKey);
    expect(keys.filter((key) => key === 'converted').length).toBeGreaterThan(COUNT / 5);
    expect(keys.filter((key) => key === 'CORRUPT_DOCUMENT').length).toBeGreaterThan(COUNT / 5);
  }, 180_000);
});
