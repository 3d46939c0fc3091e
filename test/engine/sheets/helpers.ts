/** Shared by the spreadsheet and CSV converter tests: corpus files, converter input, reading tables back. */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { parseOptionsSchema } from '../../../src/contract/options.js';
import { EngineError, type EngineErrorCode } from '../../../src/engine/engine-error.js';
import type { ConvertInput, DocumentModel, ModelBlock } from '../../../src/engine/model.js';

/** The test corpus (test/fixtures/corpus, see its SOURCES.md). */
import { CORPUS_URL } from '../../helpers/corpus.js';

export const CORPUS = CORPUS_URL;

export function corpusBytes(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(relative, CORPUS)));
}

export function corpusText(relative: string): string {
  return readFileSync(new URL(relative, CORPUS), 'utf8');
}

export function convertInput(bytes: Uint8Array, fileName: string): ConvertInput {
  const dot = fileName.lastIndexOf('.');
  return {
    bytes,
    fileName,
    extension: dot === -1 ? '' : fileName.slice(dot).toLowerCase(),
    options: parseOptionsSchema.parse({}),
  };
}

export function blocksOf(model: DocumentModel): ModelBlock[] {
  return model.pages.flatMap((page) => page.blocks);
}

/** The first table block of a page, as rows of cell text (unescaped: `\|` → `|`). */
export function tableOnPage(model: DocumentModel, pageNumber: number): string[][] {
  const block = model.pages.find((page) => page.pageNumber === pageNumber)?.blocks.find((b) => b.type === 'table');
  if (!block) throw new Error(`no table on page ${pageNumber}`);
  return readGfmTable(block.markdown);
}

/** Every table block of a page (chart tables included), each as rows of cell text. */
export function tablesOnPage(model: DocumentModel, pageNumber: number): string[][][] {
  const page = model.pages.find((candidate) => candidate.pageNumber === pageNumber);
  return (page?.blocks ?? []).filter((block) => block.type === 'table').map((block) => readGfmTable(block.markdown));
}

/**
 * A GFM table back into rows of cells: the delimiter row is dropped, escaped pipes are restored, cells trimmed.
 * Works on docling's expected Markdown too (`| - |` delimiter rows).
 */
export function readGfmTable(markdown: string): string[][] {
  const lines = markdown.trim().split('\n');
  const rows: string[][] = [];
  lines.forEach((line, index) => {
    if (index === 1 && /^\|(\s*:?-+:?\s*\|)+$/.test(line.trim())) return;
    const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
    const cells: string[] = [];
    let current = '';
    for (let position = 0; position < inner.length; position += 1) {
      const character = inner[position];
      if (character === '\\' && inner[position + 1] === '|') {
        current += '|';
        position += 1;
      } else if (character === '|') {
        cells.push(current.trim());
        current = '';
      } else {
        current += character;
      }
    }
    cells.push(current.trim());
    rows.push(cells);
  });
  return rows;
}

/** Awaits a conversion that must fail with an EngineError of this API code, and returns it. */
export async function expectEngineError(
  promise: Promise<unknown>,
  apiCode: EngineErrorCode,
  message?: RegExp,
): Promise<EngineError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ${apiCode}`).toBeInstanceOf(EngineError);
  const error = caught as EngineError;
  expect(error.apiCode).toBe(apiCode);
  expect(error.code).toBe(`ENGINE_${apiCode}`);
  if (message) expect(error.message).toMatch(message);
  return error;
}
