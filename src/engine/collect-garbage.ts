/**
 * A full garbage collection on demand, for an engine thread between documents. The WebAssembly memory a document's
 * PDF renderer grew (tens of MB at 300 DPI) is let go of when the document is done (wasm-memory.ts), but V8 frees it
 * only with a major collection, which a thread that allocates little on its heap may not run for many documents:
 * meanwhile the memory stays resident. V8 offers `gc` to scripts only under `--expose-gc`; the flag is set for the
 * moment a fresh context is made to take the function from it, then cleared, so no other context gets a `gc` global.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** Runs a full, synchronous garbage collection of this thread's heap. */
export function collectGarbage(): void {
  collect ??= exposedGc();
  collect();
}
