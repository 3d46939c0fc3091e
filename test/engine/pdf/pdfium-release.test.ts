/**
 * PDFium's WebAssembly memory grows to the largest page an engine thread draws and never shrinks: the thread lets
 * go of the module after each document, and nothing else may keep it (the module's build hooks the global object);
 * after a document that grew it much, the thread collects garbage, which gives it back to the system at once.
 */
import { describe, expect, it } from 'vitest';
import { loadPdfium, PageRenderer } from '../../../src/engine/pdf/ocr/render-page.js';
import { collectGarbage } from '../../../src/engine/collect-garbage.js';
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

  it('counts the memory a document drew in until it is released, and draws the same page again after', async () => {
    const draw = async () => {
      const renderer = await PageRenderer.open(readCorpusBytes('pdf/ocr_test.pdf'));
      const page = renderer?.render(1);
      renderer?.close();
      return page;
    };
    const first = await draw();
    expect(first?.width).toBeGreaterThan(2000);
    expect(wasmMemoryBytes()).toBeGreaterThan(32 * 1024 * 1024);
    releaseWasmMemories();
    expect(wasmMemoryBytes()).toBe(0);
    // Taken up again while V8 has not collected it, or instantiated anew: the same pixels either way.
    const again = await draw();
    expect(Buffer.from(again?.pixels ?? []).equals(Buffer.from(first?.pixels ?? [0]))).toBe(true);
    expect(wasmMemoryBytes()).toBeGreaterThan(32 * 1024 * 1024);
    releaseWasmMemories();
  }, 120_000);

  it('is collected with its memory at the collection an engine thread runs after a document that drew much', async () => {
    // A document that draws a page at 300 DPI, and the module (with its memory) watched without being held.
    const drawPage = async (): Promise<WeakRef<object>> => {
      const renderer = await PageRenderer.open(readCorpusBytes('pdf/ocr_test.pdf'));
      renderer?.render(1);
      renderer?.close();
      return new WeakRef(await loadPdfium());
    };
    const module = await drawPage();
    const drawn = wasmMemoryBytes();
    expect(drawn).toBeGreaterThan(32 * 1024 * 1024);
    expect(releaseWasmMemories()).toBe(drawn);
    // As in an engine thread, in a later task than the one that took the module: V8 keeps a WeakRef's target alive
    // until the task that read it ends.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    // Compared, not printed: the module's build aborts on a read of some of its properties.
    expect(module.deref() === undefined).toBe(true);
    expect(releaseWasmMemories()).toBe(0);
  }, 120_000);
});
