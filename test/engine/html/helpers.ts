/** Shared by the HTML and DOCX engine tests: corpus files, validated options, a model's Markdown. */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ParseOptions, type ParseOptionsInput, parseOptionsSchema } from '../../../src/contract/options.js';
import type { ConvertInput, DocumentModel, ModelBlock } from '../../../src/engine/model.js';

/** The test corpus (test/fixtures/corpus, see its SOURCES.md). */
import { CORPUS_URL } from '../../helpers/corpus.js';

export const CORPUS_ROOT = CORPUS_URL;

export function corpusPath(relative: string): string {
  return fileURLToPath(new URL(relative, CORPUS_ROOT));
}

export function corpusExists(relative = ''): boolean {
  return existsSync(corpusPath(relative));
}

export function corpusBytes(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(corpusPath(relative)));
}

export function corpusText(relative: string): string {
  return readFileSync(corpusPath(relative), 'utf8');
}

/** Options as the API would act on them: validated, every default applied. */
export function options(input: ParseOptionsInput = {}): ParseOptions {
  return parseOptionsSchema.parse(input);
}

export function input(relativeOrBytes: string | Uint8Array, overrides: ParseOptionsInput = {}, fileName?: string): ConvertInput {
  const bytes = typeof relativeOrBytes === 'string' ? corpusBytes(relativeOrBytes) : relativeOrBytes;
  const name = fileName ?? (typeof relativeOrBytes === 'string' ? relativeOrBytes.split('/').pop() ?? 'file' : 'file.html');
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.')).toLowerCase() : '';
  return { bytes, fileName: name, extension, options: options(overrides) };
}

export function blocksOf(model: DocumentModel): ModelBlock[] {
  return model.pages.flatMap((page) => page.blocks);
}

/** The document Markdown the renderer would build (blocks joined by a blank line, furniture optional). */
export function markdownOf(model: DocumentModel, { furniture = false }: { furniture?: boolean } = {}): string {
  return blocksOf(model)
    .filter((block) => furniture || !block.furniture)
    .map((block) => block.markdown)
    .filter((markdown) => markdown.trim() !== '')
    .join('\n\n');
}

/** GFM table blocks of a model, each as rows of trimmed cells (the delimiter row left out). */
export function tablesOf(model: DocumentModel): string[][][] {
  return blocksOf(model)
    .filter((block) => block.type === 'table')
    .map((block) =>
      block.markdown
        .split('\n')
        .filter((line, index) => index !== 1)
        .map((line) =>
          line
            .replace(/^\|\s?/, '')
            .replace(/\s?\|$/, '')
            .split(/(?<!\\)\|/)
            .map((cell) => cell.trim()),
        ),
    );
}

/** Headings of a Markdown text, without their # marks. */
export function headingsOf(markdown: string): string[] {
  return [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((match) => (match[1] ?? '').trim());
}
