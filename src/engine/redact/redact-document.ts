/**
 * Redaction on the local engine: applied to the DocumentModel, before the renderer lays it out, so every output
 * the renderer derives (markdown, pages, blocks with their exact markdownSpan, summary, html, links, warning) is
 * built from redacted text and spans stay exact. Each block's Markdown is redacted on its own: the separators the
 * renderer puts between blocks can never be part of a span.
 */
import type { Redaction } from '../../contract/options.js';
import type { DocumentModel, MetadataValue } from '../model.js';
import { redactHtml } from './redact-html.js';
import { createTextRedactor, type TextRedactor } from './text-redactor.js';

/** Metadata that names the document's form, not its content. */
const STRUCTURAL_METADATA = new Set(['language', 'contentType', 'mimeType', 'numPages', 'totalPages', 'pdfVersion']);

export async function redactDocument(model: DocumentModel, redaction: Redaction): Promise<DocumentModel> {
  const redact = await createTextRedactor(redaction);
  const redacted: DocumentModel = {
    ...model,
    pages: model.pages.map((page) => ({
      ...page,
      blocks: page.blocks.map((block) => ({ ...block, markdown: redact(block.markdown) })),
    })),
    metadata: redactMetadata(model.metadata, redact),
  };
  if (model.html !== undefined) redacted.html = redactHtml(model.html, redact);
  if (model.rawHtml !== undefined) redacted.rawHtml = redactHtml(model.rawHtml, redact);
  if (model.links !== undefined) redacted.links = model.links.map(redact);
  if (model.images !== undefined) redacted.images = model.images.map(redact);
  // Warnings can quote the document (a hidden slide's title, a file name).
  if (model.warnings !== undefined) redacted.warnings = model.warnings.map(redact);
  return redacted;
}

function redactMetadata(metadata: DocumentModel['metadata'], redact: TextRedactor): DocumentModel['metadata'] {
  const result: Record<string, MetadataValue> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (STRUCTURAL_METADATA.has(key)) result[key] = value;
    else if (typeof value === 'string') result[key] = redact(value);
    else if (Array.isArray(value)) result[key] = value.map(redact);
    else result[key] = value;
  }
  return result;
}
