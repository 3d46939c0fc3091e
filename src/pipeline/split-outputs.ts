/**
 * Splits a parse result into the store's files: `.md` (markdown), `.pages.json`, `.blocks.json`, and `.json`
 * with everything else in `data` (metadata, links, summary, html, warning, json...).
 */
import type { ParseData } from '../contract/response.js';
import type { DocumentOutputs } from '../store/output-store.js';

export function splitOutputs(data: ParseData): DocumentOutputs {
  const { markdown, pages, blocks, ...rest } = data;
  const outputs: DocumentOutputs = { json: rest };
  if (typeof markdown === 'string') outputs.markdown = markdown;
  if (pages) outputs.pages = pages;
  if (blocks) outputs.blocks = blocks;
  return outputs;
}
