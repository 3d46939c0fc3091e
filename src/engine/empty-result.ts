/**
 * No silent empty conversions: the one rule for a document whose Markdown comes out empty, applied by the engine
 * after every converter (engine.ts), whatever the format. Such a document is failed, or converted with a warning
 * that says why it is empty:
 *
 * - every page failed (no page could be read at all) → CORRUPT_DOCUMENT;
 * - it has text, but all of it is page furniture (running headers, footers, page numbers), which onlyMainContent
 *   leaves out → converted, with a warning that says so and how to keep it (a deck gets its own words for this);
 * - its converter found no text and said so in a warning ("the document has no text", "the presentation has no
 *   text.", "The file is empty: it holds no rows of data.", a PDF's pages without a text layer...) → converted,
 *   that warning being the reason;
 * - otherwise nothing says why → EMPTY_DOCUMENT.
 *
 * What counts as the Markdown's text is what the renderer puts in it (render.ts `inDocumentMarkdown`).
 */
import type { ParseOptions } from '../contract/options.js';
import { EngineError } from './engine-error.js';
import type { DocumentModel } from './model.js';
import { inDocumentMarkdown } from './render.js';
import { ONLY_FURNITURE_WARNING } from './slides/render-slide.js';

export const FURNITURE_ONLY_WARNING =
  'the Markdown is empty: all the text of the document is page furniture (running headers, footers, page numbers), ' +
  'which onlyMainContent leaves out; set onlyMainContent to false to keep it.';

/** Throws for an empty conversion that must fail; adds the warning one must carry; leaves any other model alone. */
export function checkEmptyResult(model: DocumentModel, options: Pick<ParseOptions, 'onlyMainContent'>): void {
  const blocks = model.pages.flatMap((page) => page.blocks);
  if (blocks.some((block) => inDocumentMarkdown(block, options))) return;
  const pages = model.pages.length;
  if (pages > 0 && model.pages.every((page) => page.status === 'failed')) {
    throw new EngineError('CORRUPT_DOCUMENT', `the file is damaged: none of its ${pages} page(s) could be read`);
  }
  const warnings = model.warnings ?? [];
  if (blocks.some((block) => block.markdown.trim() !== '')) {
    if (!warnings.includes(ONLY_FURNITURE_WARNING)) model.warnings = [...warnings, FURNITURE_ONLY_WARNING];
    return;
  }
  if (warnings.length > 0) return;
  throw new EngineError('EMPTY_DOCUMENT', 'the document converted to no text, and nothing in it says why (no page, sheet or paragraph with text was found)');
}
