/**
 * jschardet, loaded for the legacy encodings text.ts guesses and let go of between runs of guesses. Its first guess
 * decompresses its bigram models, 22 MB of buffers that the module keeps for good: every engine thread that had met
 * one legacy-encoded file held them to its end (two threads, 44 MB of the soak's peak; BENCHMARKS.md section 17).
 * Here it is loaded from its CommonJS build, kept while guesses keep coming, and dropped once none came for
 * `IDLE_MS`: taken out of require's cache, and the require function that loaded it (which lists it among its
 * children) dropped with it, so that nothing holds the models. Loading it again costs some 35 ms, once per run of
 * guesses.
 */
import { createRequire } from 'node:module';
import type { chardet } from 'jschardet';

type Chardet = typeof chardet;

/** require's cache, shared by every require function: where the loaded module is taken out. */
const requireCache = createRequire(import.meta.url).cache;

/** How long the models are kept after a guess: a batch of legacy files keeps them, a mixed one lets them go. */
const IDLE_MS = 2_000;

interface Loaded {
  chardet: Chardet;
  /** The module's file, its key in require's cache. */
  path: string;
}

let loaded: Loaded | undefined;
let idleTimer: NodeJS.Timeout | undefined;

/** A require function of its own each time: it lists what it loaded as its children, and goes with them. */
function load(): Loaded {
  const requireJschardet = createRequire(import.meta.url);
  const path = requireJschardet.resolve('jschardet');
  return { chardet: (requireJschardet(path) as { chardet: Chardet }).chardet, path };
}

function unload(): void {
  if (!loaded) return;
  Reflect.deleteProperty(requireCache, loaded.path);
  loaded = undefined;
}

/** jschardet's detector, loaded if it is not; kept `IDLE_MS` after this call. */
export function chardetForGuess(): Chardet {
  loaded ??= load();
  clearTimeout(idleTimer);
  idleTimer = setTimeout(unload, IDLE_MS).unref();
  return loaded.chardet;
}

/** Whether jschardet (and its models, once it has guessed) is held now. */
export function chardetHeld(): boolean {
  return loaded !== undefined;
}
