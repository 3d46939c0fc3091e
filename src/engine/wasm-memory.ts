/**
 * The WebAssembly memories an engine thread keeps between documents (PDFium's renderer, ocr/render-page.ts). Such a
 * memory grows with what is drawn in it (some 44 MB after a page drawn in bands at 300 DPI) and never shrinks, nor does V8
 * give it back when its instance is dropped; the thread reports their size with each result, and the pool replaces
 * a thread that holds much (thread-pool.ts).
 */
const memories = new Set<() => number>();

/** Counts a memory from now on; `size` reads its bytes now. */
export function countWasmMemory(size: () => number): void {
  memories.add(size);
}

/** The bytes of the memories counted. */
export function wasmMemoryBytes(): number {
  let bytes = 0;
  for (const size of memories) bytes += size();
  return bytes;
}
