/**
 * The WebAssembly memories an engine thread uses for a document (PDFium's renderer, ocr/render-page.ts). Such a
 * memory grows with what is drawn in it (some 44 MB after a page drawn in bands at 300 DPI) and never shrinks; kept
 * between documents, each thread that had drawn one scan held it to its end. The thread lets go of them once each
 * document is done (`releaseWasmMemories`), so that V8 frees them with their instance, and reports what it still
 * keeps with each result (the pool replaces a thread that keeps much: thread-pool.ts).
 */
interface Counted {
  /** Its bytes now. */
  size: () => number;
  /** Drops the owner's hold on it: the next document that needs one makes another. */
  release: () => void;
}

const memories = new Set<Counted>();

/** Counts a memory until it is released. */
export function countWasmMemory(size: () => number, release: () => void): void {
  memories.add({ size, release });
}

/** The bytes of the memories counted. */
export function wasmMemoryBytes(): number {
  let bytes = 0;
  for (const memory of memories) bytes += memory.size();
  return bytes;
}

/** Between documents: every memory counted is let go of, to be freed with its instance; returns their bytes. */
export function releaseWasmMemories(): number {
  const released = wasmMemoryBytes();
  for (const memory of memories) memory.release();
  memories.clear();
  return released;
}
