/**
 * Long PDFs as BullMQ flows. A PDF over the upload limit, or with more pages than one request's timeout holds, is
 * cut into page ranges by its document's job, which then waits for a child job per range (BullMQ's "process step"
 * pattern: the parent adds children with `parent` set, moves itself to waiting-children, and is processed again when
 * they are done). Each child parses its range through the same gate, deferrals and attempts as a document, and
 * checkpoints the result in the store before it completes; the parent merges the checkpoints as one parse.
 *
 * Range bytes are cut once, by the parent, and stored under `_docmill/ranges/` where every worker of the store can
 * read them: re-cutting in each child would load the whole PDF once per range (seconds and hundreds of MB each for a
 * 2,000-page file). A run that dies resumes from the checkpoints: only ranges without one are parsed again.
 */
import { UnrecoverableError, WaitingChildrenError, type Job, type JobsOptions, type Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { ParseResult } from '../backend/parse-backend.js';
import type { UploadSource } from '../backend/upload-source.js';
import { extensionOf } from '../contract/extensions.js';
import { MAX_FILE_BYTES } from '../contract/limits.js';
import { pdfParserOf, type ParseOptions } from '../contract/options.js';
import { parseDataSchema, type ParseData } from '../contract/response.js';
import { DocmillError } from '../errors/docmill-error.js';
import { RANGE_JOB_NAME, type ParseJobData } from '../queue/job-data.js';
import { rangeKey } from '../store/layout.js';
import type { OutputStore } from '../store/output-store.js';
import type { MaterialisedFile } from './materialise.js';
import { mergeRangeResults } from './merge-ranges.js';
import { countPdfPages } from './pdf-page-count.js';
import { cutUnderLimit, defaultSplitPages, loadPdf, planRanges, PdfSplitError, type PageRange } from './pdf-ranges.js';

export type SplitPlan = NonNullable<ParseJobData['split']>;

/** A range's checkpoint: its parse result and the requests it took. */
interface Checkpoint {
  v: 1;
  first: number;
  last: number;
  requests: number;
  data: ParseData;
}

/** A page range failed for good (its own attempts spent, or an error about its pages): the document fails. */
export class PdfRangeError extends DocmillError {
  constructor(file: string, reason: string) {
    super('PDF_RANGE_FAILED', `${file}: ${reason}`);
    this.name = 'PdfRangeError';
  }
}

export interface LongPdfDeps {
  queue: Queue;
  store: OutputStore;
  logger: Logger;
  /** The most pages per range. @default the options' timeout / PAGE_BUDGET_MS */
  splitPages?: number | undefined;
}

export class LongPdfs {
  constructor(private readonly deps: LongPdfDeps) {}

  /**
   * Whether the document goes in ranges, and if so the plan, with every range's bytes already in the store. A PDF
   * pdf-lib cannot read is sent whole when it may be (the API says what is wrong with it), and fails here when it
   * is over the upload limit. `fresh` (--force): checkpoints of an earlier run are dropped, not reused.
   */
  async plan(data: ParseJobData, local: MaterialisedFile, options: ParseOptions, fresh = false): Promise<SplitPlan | undefined> {
    if (extensionOf(data.relativePath) !== '.pdf') return undefined;
    const bytes = await readAll(local.upload);
    const maxPages = pdfParserOf(options).maxPages;
    const perRange = this.deps.splitPages ?? defaultSplitPages(options.timeout);
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
    const ranges: PageRange[] = [];
    const written: string[] = [];
    try {
      for (const planned of planRanges(covered, perRange, bytes.byteLength, totalPages)) {
        for await (const piece of cutUnderLimit(pdf, planned, data.relativePath)) {
          const checkpoint = this.#key(local.sha256, data.optionsFingerprint, piece.range, 'json');
          if (fresh) await this.deps.store.deleteWorkFiles([checkpoint]);
          // A range already parsed by an earlier run needs no bytes.
          if (fresh || !(await this.#hasCheckpoint(local.sha256, data.optionsFingerprint, piece.range))) {
            const key = this.#key(local.sha256, data.optionsFingerprint, piece.range, 'pdf');
            await this.deps.store.writeWorkFile(key, piece.bytes);
            written.push(key);
          }
          ranges.push(piece.range);
        }
      }
    } catch (error) {
      // The store's errors and a page over the limit are what they are; anything else is pdf-lib failing on the file.
      if (error instanceof DocmillError) throw error;
      await this.deps.store.deleteWorkFiles(written).catch(() => undefined);
      return unreadable(error);
    }
    this.deps.logger.info({ file: data.relativePath, totalPages, pages: covered, ranges: ranges.length, bytes: bytes.byteLength }, 'long PDF: parsing in page ranges');
    return { sha256: local.sha256, totalPages, ranges, generation: 0 };
  }

  /**
   * One step of the document's job once split: the merged result when every range is checkpointed; otherwise adds
   * children for the ranges not done and waits for them (throws WaitingChildrenError). A range whose child failed
   * for good fails the document; a rerun of it adds that range's child again.
   */
  async advance(job: Job, token: string | undefined, data: ParseJobData, split: SplitPlan, options: ParseOptions): Promise<{ data: ParseData; requests: number }> {
    for (;;) {
      const checkpoints = await Promise.all(split.ranges.map((range) => this.#readCheckpoint(split.sha256, data.optionsFingerprint, range)));
      const missing = split.ranges.filter((_, index) => checkpoints[index] === undefined);
      if (missing.length === 0) {
        const done = checkpoints.filter((checkpoint): checkpoint is Checkpoint => checkpoint !== undefined);
        const merged = mergeRangeResults(
          done.map((checkpoint) => ({ firstPage: checkpoint.first, lastPage: checkpoint.last, data: checkpoint.data })),
          { pageMarkers: pdfParserOf(options).pageMarkers, totalPages: split.totalPages, keepPages: pdfParserOf(options).pages },
        );
        return { data: merged, requests: done.reduce((sum, checkpoint) => sum + checkpoint.requests, 0) };
      }
      const failure = await this.#failureOf(job, split);
      if (failure) {
        // The next rerun of this document starts a new generation of children for the ranges still missing.
        await job.updateData({ ...data, split: { ...split, generation: split.generation + 1 } });
        throw new PdfRangeError(data.relativePath, failure);
      }
      const pending = await job.getDependenciesCount({ unprocessed: true });
      if ((pending.unprocessed ?? 0) === 0) await this.#addChildren(job, data, split, missing);
      if (token === undefined) throw new UnrecoverableError('a split document needs its job token to wait for its ranges');
      if (await job.moveToWaitingChildren(token)) throw new WaitingChildrenError();
    }
  }

  /** Removes the range bytes and checkpoints once the merged outputs are written. */
  async cleanUp(split: SplitPlan, optionsFingerprint: string): Promise<void> {
    const keys = split.ranges.flatMap((range) => [
      this.#key(split.sha256, optionsFingerprint, range, 'pdf'),
      this.#key(split.sha256, optionsFingerprint, range, 'json'),
    ]);
    await this.deps.store.deleteWorkFiles(keys);
  }

  /**
   * A child job: parses its range with `parse` (the document's gate, deferrals and attempts), then checkpoints the
   * result atomically. A range already checkpointed (by a run that died before its parent merged) is not sent again.
   */
  async processRange(data: ParseJobData, parse: (upload: UploadSource) => Promise<ParseResult>, requests: { count: number }): Promise<{ requests: number }> {
    const range = data.range;
    if (!range) throw new UnrecoverableError('a range job without its range');
    if (await this.#hasCheckpoint(range.sha256, data.optionsFingerprint, range)) return { requests: 0 };
    const bytes = await this.deps.store.readWorkFile(this.#key(range.sha256, data.optionsFingerprint, range, 'pdf'));
    if (!bytes) {
      // Gone since the cut: the same content was merged under another path (which removes its ranges), or the store
      // was cleaned by hand. The document's job decides when it runs again: it copies the twin's outputs, or cuts anew.
      this.deps.logger.info({ file: data.relativePath, range: `${range.first}-${range.last}` }, 'page range no longer in the store; its document decides');
      return { requests: 0 };
    }
    const upload: UploadSource = {
      fileName: rangeFileName(data.relativePath, range),
      size: bytes.byteLength,
      open: async function* () {
        yield bytes;
      },
    };
    const result = await parse(upload);
    const checkpoint: Checkpoint = { v: 1, first: range.first, last: range.last, requests: requests.count, data: result.data };
    await this.deps.store.writeWorkFile(this.#key(range.sha256, data.optionsFingerprint, range, 'json'), JSON.stringify(checkpoint));
    return { requests: requests.count };
  }

  async #addChildren(job: Job, data: ParseJobData, split: SplitPlan, missing: PageRange[]): Promise<void> {
    if (!job.id) throw new UnrecoverableError('a split document needs a job id');
    // Ranges whose bytes went missing (a store cleaned by hand) are cut again from the document's own bytes: the
    // caller only gets here with the document materialised, and re-cutting is rare.
    const absent = [];
    for (const range of missing) {
      if (!(await this.deps.store.readWorkFile(this.#key(split.sha256, data.optionsFingerprint, range, 'pdf')))) absent.push(range);
    }
    if (absent.length > 0) throw new RangeBytesMissing(absent);
    const { split: _split, requestsMade: _requests, throttles: _throttles, failures: _failures, ...document } = data;
    const options: JobsOptions = {
      attempts: job.opts.attempts ?? 1,
      ...(job.opts.backoff !== undefined ? { backoff: job.opts.backoff } : {}),
      removeOnComplete: true,
      removeOnFail: true,
      parent: { id: job.id, queue: job.queueQualifiedName },
      // A range that fails for good must not strand its document in waiting-children: it is processed, and fails.
      ignoreDependencyOnFailure: true,
    };
    await this.deps.queue.addBulk(
      missing.map((range) => ({
        name: RANGE_JOB_NAME,
        data: { ...document, size: 0, range: { ...range, sha256: split.sha256 } } satisfies ParseJobData,
        opts: { ...options, jobId: `${job.id}-g${split.generation}-p${range.first}-${range.last}` },
      })),
    );
  }

  /** Why a child of this generation failed for good, if one did. */
  async #failureOf(job: Job, split: SplitPlan): Promise<string | undefined> {
    const failures = await job.getIgnoredChildrenFailures();
    const marker = `-g${split.generation}-p`;
    for (const [key, reason] of Object.entries(failures)) {
      const at = key.lastIndexOf(marker);
      if (at < 0) continue;
      return `pages ${key.slice(at + marker.length)}: ${reason}`;
    }
    return undefined;
  }

  async #hasCheckpoint(sha256: string, fingerprint: string, range: PageRange): Promise<boolean> {
    return (await this.#readCheckpoint(sha256, fingerprint, range)) !== undefined;
  }

  async #readCheckpoint(sha256: string, fingerprint: string, range: PageRange): Promise<Checkpoint | undefined> {
    const body = await this.deps.store.readWorkFile(this.#key(sha256, fingerprint, range, 'json'));
    if (!body) return undefined;
    try {
      const parsed = JSON.parse(Buffer.from(body).toString('utf8')) as Partial<Checkpoint>;
      if (parsed.v !== 1 || parsed.first !== range.first || parsed.last !== range.last) return undefined;
      return { v: 1, first: range.first, last: range.last, requests: Number(parsed.requests ?? 0), data: parseDataSchema.parse(parsed.data) };
    } catch {
      // A checkpoint that does not read back is parsed again rather than trusted.
      return undefined;
    }
  }

  #key(sha256: string, fingerprint: string, range: PageRange, kind: 'pdf' | 'json'): string {
    return rangeKey(sha256, fingerprint, range.first, range.last, kind);
  }
}

/** Range bytes gone from the store: the document's job re-plans (cuts again) on its next step. */
export class RangeBytesMissing extends Error {
  constructor(readonly ranges: PageRange[]) {
    super(`range bytes missing: ${ranges.map((range) => `${range.first}-${range.last}`).join(', ')}`);
  }
}

/**
 * The options a range is parsed with: the document's, plus per-page Markdown when page markers are on, so the merge
 * knows which page a range's Markdown starts on (a range whose first pages are blank starts further in, and the
 * marker before it must say so). Pages cost nothing extra (spec: "pages"); the merge drops them when not asked for.
 */
export function rangeOptions(options: ParseOptions): ParseOptions {
  const pdf = pdfParserOf(options);
  if (!pdf.pageMarkers || pdf.pages) return options;
  return { ...options, parsers: [{ ...pdf, pages: true }] };
}

/** `a/book.pdf`, pages 51-100 → `book.pages-51-100.pdf`: what the API sees as the file name. */
export function rangeFileName(relativePath: string, range: PageRange): string {
  const base = relativePath.slice(relativePath.lastIndexOf('/') + 1);
  const stem = base.replace(/\.pdf$/i, '');
  return `${stem}.pages-${range.first}-${range.last}.pdf`;
}

async function readAll(upload: UploadSource): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of upload.open()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
