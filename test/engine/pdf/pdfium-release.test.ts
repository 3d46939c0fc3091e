/**
 * PDFium's WebAssembly memory grows to the largest page an engine thread draws and never shrinks: the thread lets
 * go of the module after each document, and nothing else may keep it (the module's build hooks the global object).
 */
import { describe, expect, it } from 'vitest';
import { loadPdfium, PageRenderer } from '../../../src/engine/pdf/ocr/render-page.js';
import { releaseWasmMemories, wasmMemoryBytes } from '../../../src/engine/wasm-memory.js';
import { readCorpusBytes } from '../../helpers/corpus.js';

describe("PDFium's renderer between documents", () => {
  it('leaves no getter of its own on the global object, which would keep the first instance and its memory', async () => {
    const before = new Set(Reflect.ownKeys(globalThis));
    await loadPdfium();
    const added = Reflect.ownKeys(globalThis).filter((key) => !before.has(key));
    expect(added.filter((key) => Reflect.getOwnPropertyDescriptor(globalThis, key)?.get)).toEqual([]);
    releaseWasmMemories();
  });

  it('counts the memory a document drew in until it is released, and loads a fresh module for the next', async () => {
    const renderer = await PageRenderer.open(readCorpusBytes('pdf/ocr_test.pdf'));
    expect(renderer).toBeDefined();
    const page = renderer?.render(1);
    renderer?.close();
    expect(page?.width).toBeGreaterThan(2000);
    const drawn = await loadPdfium();
    expect(wasmMemoryBytes()).toBeGreaterThan(32 * 1024 * 1024);
    releaseWasmMemories();
    expect(wasmMemoryBytes()).toBe(0);
    const fresh = await loadPdfium();
    expect(fresh).not.toBe(drawn);
    expect(wasmMemoryBytes()).toBeLessThan(32 * 1024 * 1024);
    releaseWasmMemories();
  }, 60_000);
});
