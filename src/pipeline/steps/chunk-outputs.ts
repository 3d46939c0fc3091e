/**
 * Chunks in the pipeline. Their provenance needs the parse's pages and blocks even when the user did not ask for
 * those outputs, so with chunks on the PDF parser is sent `pages` and `blocks` (the contract gives both at no extra
 * cost, and neither changes the Markdown, which chunk offsets point into); `pageMarkers`, which would change the
 * Markdown, is left as the user set it. Page pictures travel in `pages` the same way. Only the outputs the user
 * asked for are written.
 */
import { chunk } from '../../chunk/chunk.js';
import type { ProcessingSettings } from '../../common/processing-settings.js';
import { pdfParserOf, type ParseOptions } from '../../contract/options.js';
import type { ParseData } from '../../contract/response.js';
import type { DocumentOutputs } from '../../store/output-store.js';
import { splitOutputs } from '../split-outputs.js';

/**
 * The options to parse with: the user's, plus pages and blocks when chunks are written, pages when each page's
 * picture is (it travels as the `image` of the page's entry), and the pictures kept in the result
 * (`removeBase64Images: false`) when they are written as files.
 */
export function parseOptionsFor(options: ParseOptions, settings: ProcessingSettings): ParseOptions {
  const withImages = settings.images ? { ...options, removeBase64Images: false } : options;
  const pdf = pdfParserOf(withImages);
  const pages = pdf.pages || settings.chunks !== undefined || settings.pageImages === true;
  const blocks = pdf.blocks || settings.chunks !== undefined;
  if (pages === Boolean(pdf.pages) && blocks === Boolean(pdf.blocks)) return withImages;
  return { ...withImages, parsers: [{ ...pdf, pages, blocks }] };
}

/** The files of one document: what `options` (the user's) asked for, and its chunks when the settings ask. */
export function documentOutputs(
  data: ParseData,
  options: ParseOptions,
  settings: ProcessingSettings,
  source: { path: string; sha256: string },
): DocumentOutputs {
  const outputs = splitOutputs(data);
  if (settings.chunks) outputs.chunks = chunk(data, { ...settings.chunks, source });
  // Pages and blocks parsed for the chunks or the page pictures, not asked for.
  const pdf = pdfParserOf(options);
  if (!pdf.pages) delete outputs.pages;
  if (!pdf.blocks) delete outputs.blocks;
  return outputs;
}
