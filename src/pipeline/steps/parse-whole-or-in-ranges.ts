/**
 * Parse step of a document: one request (./parse.ts), or, for a PDF too large for one request or too long for one
 * request's timeout, page ranges (./split-pdf.ts cuts them, ./range-children.ts waits for a child job per range and
 * merges their checkpoints when the job is processed again). The requests the ranges took are counted in the job's.
 */
import type { ParseResult } from '../../backend/parse-backend.js';
import type { JobContext } from '../job-context.js';
import type { MaterialisedFile } from '../materialise.js';
import { LeaveGroupError } from '../job-control.js';
import { parse, type ParseDeps } from './parse.js';
import { advanceRanges, RangeBytesMissing, type RangeChildrenDeps } from './range-children.js';
import { splitPdf, type SplitDeps } from './split-pdf.js';

export type ParseDocumentDeps = ParseDeps & RangeChildrenDeps & SplitDeps;

export async function parseWholeOrInRanges(ctx: JobContext, local: MaterialisedFile, deps: ParseDocumentDeps): Promise<ParseResult> {
  const began = Date.now();
  let plan = ctx.data.split ?? (await splitPdf(ctx, local, deps, { fresh: Boolean(ctx.data.force), generation: 0 }));
  if (!plan) return parse(ctx, local.upload, deps);
  // Page ranges are children of the document's job: a grouped document takes a job of its own, the plan in its data.
  if (ctx.grouped) throw new LeaveGroupError('split into page ranges');
  let merged;
  try {
    merged = await advanceRanges(ctx, plan, deps);
  } catch (error) {
    if (!(error instanceof RangeBytesMissing)) throw error;
    // Range bytes gone from the store (cleaned by hand): cut again, and add the children afresh.
    plan = await splitPdf(ctx, local, deps, { fresh: false, generation: plan.generation + 1 });
    if (!plan) return parse(ctx, local.upload, deps);
    merged = await advanceRanges(ctx, plan, deps);
  }
  ctx.countRequests(merged.requests);
  return { data: merged.data, attempts: merged.requests, durationMs: Date.now() - began };
}
