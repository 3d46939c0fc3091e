/**
 * Memory a converter let go of that only a garbage collection gives back: a WebAssembly instance dropped after its
 * document (ocr/render-page.ts) holds its memory until V8 collects it, and a thread whose heap stays small may not
 * collect for many documents. The engine thread asks after each document and collects at once when there is some.
 */
let released = false;

/** A converter dropped memory that V8 returns only when it collects. */
export function noteReleasedMemory(): void {
  released = true;
}

/** Whether memory was dropped since the last call. */
export function takeReleasedMemory(): boolean {
  const was = released;
  released = false;
  return was;
}
