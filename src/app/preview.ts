/**
 * `preview`: what a run (or an enqueue) of a source would send to the parse API and what it would cost, without
 * sending, queueing or writing anything (`docmill run|enqueue SRC --dry-run`). It lists the source as a run would,
 * leaves out what a run would skip (files whose outputs in `out` are up to date, and content already converted
 * there or earlier in the same listing, which a run copies), counts PDF pages locally, and prices each document
 * with the hosted API's credit rules (src/pipeline/credits.ts). No Redis is needed.
 *
 *   const cost = await preview({ source: './archive', out: './md', parseOptions: { formats: [{ type: 'json' }] } });
 *   console.log(cost.documents, cost.pages, cost.estimatedCredits);
 */
import { createHash } from 'node:crypto';
import { collectBytes } from '../backend/upload-source.js';
import { integerSetting } from '../config/numbers.js';
import { extensionOf } from '../contract/extensions.js';
import { MAX_FILE_BYTES } from '../contract/limits.js';
import { costOfBytes } from '../pipeline/document-cost.js';
import type { Source, SourceFile } from '../sources/source.js';
import type { OutputStore } from '../store/output-store.js';
import { CompositionRoot } from './composition-root.js';
import { notConvertedRecord } from './not-converted.js';
import type { PreviewOptions } from './options.js';
import { processingSettingsFrom, validatedOptions } from './processing-settings.js';

/** The credit rules the estimate applies (the hosted API's), for a caller that shows them. */
export { CREDIT_RULES } from '../pipeline/credits.js';

export interface PreviewItem {
  /** Path below the source, as the outputs will mirror it. */
  path: string;
  /** Pages billed: a PDF's pages (up to `maxPages`); 1 for other documents. */
  pages: number;
  credits: number;
  /** Why a count is a guess (an unreadable PDF counts as 1 page). */
  note?: string | undefined;
}

export interface CostPreview {
  /** Documents that would be sent to the parse API. */
  documents: number;
  pages: number;
  estimatedCredits: number;
  /** One per document that would be sent, in listing order. */
  items: PreviewItem[];
  /** Listed documents that would not be sent: outputs up to date, the same content converted (copied, 0 credits), over 50 MiB. */
  skipped: { unchanged: number; sameContent: number; tooLarge: number };
  /** Listed files docmill does not convert (unsupported extension, unreadable...). */
  notConverted: number;
}

export async function preview(options: PreviewOptions): Promise<CostPreview> {
  const { options: parseOptions, fingerprint } = validatedOptions(options.parseOptions, processingSettingsFrom(options));
  const force = Boolean(options.force);
  const splitPages = options.splitPages === undefined ? undefined : integerSetting(options.splitPages, 'splitPages');
  return CompositionRoot.use(options, async (root) => {
    const out = options.out;
    const source = await root.sources({ include: options.include, exclude: options.exclude, out }, options.s3)(options.source);
    const store = out === undefined ? undefined : await root.storeToRead(out, options.s3);
    const result: CostPreview = { documents: 0, pages: 0, estimatedCredits: 0, items: [], skipped: { unchanged: 0, sameContent: 0, tooLarge: 0 }, notConverted: 0 };
    /** Content this listing already sends once: a second file with it is copied by the run. */
    const sent = new Set<string>();
    for await (const entry of source.list(options.signal)) {
      if (entry.kind === 'skipped') {
        if (notConvertedRecord(entry, source.location)) result.notConverted++;
        continue;
      }
      const verdict = await previewFile(entry.file, source, store, fingerprint, force, sent, options.signal);
      if (verdict.kind !== 'send') {
        result.skipped[verdict.kind]++;
        continue;
      }
      const cost = await costOfBytes(verdict.bytes, entry.file.relativePath, parseOptions, splitPages);
      result.items.push({ path: entry.file.relativePath, pages: cost.pages, credits: cost.credits, ...(cost.note ? { note: cost.note } : {}) });
      result.documents++;
      result.pages += cost.pages;
      result.estimatedCredits += cost.credits;
    }
    return result;
  });
}

type Verdict = { kind: 'send'; bytes: Uint8Array } | { kind: 'unchanged' | 'sameContent' | 'tooLarge' };

/** The decision a worker would make for this file (src/pipeline/steps/), made without a queue. */
async function previewFile(
  file: SourceFile,
  source: Source,
  store: OutputStore | undefined,
  fingerprint: string,
  force: boolean,
  sent: Set<string>,
  signal: AbortSignal | undefined,
): Promise<Verdict> {
  if (!force && store) {
    const state = await store.readState(file.relativePath);
    if (state && state.changeToken === file.changeToken && state.optionsFingerprint === fingerprint) return { kind: 'unchanged' };
  }
  // A PDF over the limit is parsed in page ranges; anything else over it is refused.
  if (file.size > MAX_FILE_BYTES && extensionOf(file.relativePath) !== '.pdf') return { kind: 'tooLarge' };
  const bytes = await collectBytes(await source.open(file, signal), signal);
  if (force) return { kind: 'send', bytes };
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sent.has(sha256)) return { kind: 'sameContent' };
  if (store && (await store.findByContent(sha256, fingerprint))) return { kind: 'sameContent' };
  sent.add(sha256);
  return { kind: 'send', bytes };
}
