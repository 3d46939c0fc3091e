/**
 * Split step of a long PDF: whether the document goes in page ranges, and if so the plan, with every range's bytes
 * already in the store and the plan saved in the job's data. A PDF over the upload limit, or with more pages than one
 * request's timeout holds, is cut by its document's job once: re-cutting in each range's child would load the whole
 * PDF once per range (seconds and hundreds of MB each for a 2,000-page file). A PDF pdf-lib cannot read is sent whole
 * when it may be (the API says what is wrong with it), and fails here when it is over the upload limit.
 */
import { readUploadBytes } from '../../backend/upload-source.js';
import { extensionOf } from '../../contract/extensions.js';
import { MAX_FILE_BYTES } from '../../contract/limits.js';
import { pdfParserOf } from '../../contract/options.js';
import { DocmillError } from '../../errors/docmill-error.js';
import type { ParseJobData } from '../../queue/job-data.js';
import type { JobContext } from '../job-context.js';
import type { MaterialisedFile } from '../materialise.js';
import { countPdfPages } from '../pdf-page-count.js';
import { cutUnderLimit, defaultSplitPages, loadPdf, planRanges, PdfSplitError, type PageRange } from '../pdf-ranges.js';
import type { StepDeps } from '../processor-deps.js';
import { RangeWorkFiles } from '../range-work-files.js';

export type SplitPlan = NonNullable<ParseJobData['split']>;

export type SplitDeps = Pick<StepDeps, 'store' | 'logger' | 'splitPages'>;

export interface SplitRequest {
  /** --force: checkpoints of an earlier run are dropped, not reused. */
  fresh: boolean;
  /** Children are added under fresh ids for each generation (a re-cut after range bytes went missing). */
  generation: number;
}

/** The plan, saved in the job's data, or undefined when the document goes whole. */
export async function splitPdf(ctx: JobContext, local: MaterialisedFile, deps: SplitDeps, request: SplitRequest): Promise<SplitPlan | undefined> {
  const cut = await cutRanges(ctx, local, deps, request.fresh);
  if (!cut) return undefined;
  const plan: SplitPlan = { ...cut, generation: request.generation };
  await ctx.saveData({ split: plan });
  return plan;
}

async function cutRanges(ctx: JobContext, local: MaterialisedFile, deps: SplitDeps, fresh: boolean): Promise<Omit<SplitPlan, 'generation'> | undefined> {
  const { data } = ctx;
  if (extensionOf(data.relativePath) !== '.pdf') return undefined;
  const bytes = await readUploadBytes(local.upload);
  const maxPages = pdfParserOf(ctx.options.sent).maxPages;
  const perRange = deps.splitPages ?? defaultSplitPages(ctx.options.sent.timeout);
  if (bytes.byteLength <= MAX_FILE_BYTES) {
    // Most PDFs go whole: their page tree says so in milliseconds, without loading the file into pdf-lib.
    const counted = await countPdfPages(bytes);
    if (counted.method === 'unreadable' || Math.min(counted.pages, maxPages ?? counted.pages) <= perRange) return undefined;
  }
  const unreadable = (error: unknown): undefined => {
    if (bytes.byteLength <= MAX_FILE_BYTES) return undefined;
    const cause = error instanceof Error && error.name === 'EncryptedPDFError' ? 'it is encrypted' : `pdf-lib cannot read it (${describe(error)})`;
    throw new PdfSplitError(data.relativePath, `${cause}; at ${bytes.byteLength} bytes it is over the parse API's ${MAX_FILE_BYTES}-byte limit`, { cause: error });
  };
  let pdf;
  let totalPages;
  try {
    pdf = await loadPdf(bytes);
    // A damaged file can load and still have no page tree to count.
    totalPages = pdf.getPageCount();
    if (totalPages < 1) throw new Error('no pages found');
  } catch (error) {
    return unreadable(error);
  }
  const covered = Math.min(totalPages, maxPages ?? totalPages);
  if (bytes.byteLength <= MAX_FILE_BYTES && covered <= perRange) return undefined;
  const files = new RangeWorkFiles(deps.store, local.sha256, data.optionsFingerprint);
  const ranges: PageRange[] = [];
  const written: PageRange[] = [];
  try {
    for (const planned of planRanges(covered, perRange, bytes.byteLength, totalPages)) {
      for await (const piece of cutUnderLimit(pdf, planned, data.relativePath)) {
        if (fresh) await files.removeCheckpoint(piece.range);
        // A range already parsed by an earlier run needs no bytes.
        if (fresh || !(await files.hasCheckpoint(piece.range))) {
          await files.writeBytes(piece.range, piece.bytes);
          written.push(piece.range);
        }
        ranges.push(piece.range);
      }
    }
  } catch (error) {
    // The store's errors and a page over the limit are what they are; anything else is pdf-lib failing on the file.
    if (error instanceof DocmillError) throw error;
    // Best effort: what the caller must hear of is the cut's failure, and stray range bytes are only disk space.
    await files.removeBytes(written).catch(() => undefined);
    return unreadable(error);
  }
  deps.logger.info({ file: data.relativePath, totalPages, pages: covered, ranges: ranges.length, bytes: bytes.byteLength }, 'long PDF: parsing in page ranges');
  return { sha256: local.sha256, totalPages, ranges };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
