/**
 * What pdfjs's bundles find in the thread while they are evaluated. docmill reads text with pdfjs and never draws
 * with it (PDFium renders pages), yet evaluating its legacy build for Node loads two things for drawing and saving:
 *
 * - `@napi-rs/canvas` (Skia, a native module, an optional dependency of pdfjs-dist), for `DOMMatrix`, `ImageData`
 *   and `Path2D`: loading it maps Skia and the system's fonts, about 16 MB of resident memory. The display layer
 *   also builds a `DOMMatrix` as it loads, so where the module has no build for the platform it fails to load.
 * - Node's fetch implementation (undici, with http, http2, tls and crypto), about 8 MB: both bundles' polyfill for
 *   `Response.prototype.bytes` looks at `Response`, for a method only their saving paths call.
 *
 * While they are evaluated, the canvas module resolves to `INERT_CANVAS` (its classes hold their values and cannot
 * draw), and on Node 20, where `Response` is a getter that loads fetch on first use, `Response` is a class that has
 * `bytes`. Node 22 and later define it as a value that any look at loads, so it is left alone there. Once
 * evaluated, the require cache and `Response` are as they were; the inert classes stay the thread's `DOMMatrix`,
 * `ImageData` and `Path2D` (pdfjs puts them there where the thread has none).
 *
 * Measured with the worker's source kept one byte a character (pdfjs-worker.ts, `latin1Source`): the peak resident
 * memory of a process that reads the PDF benchmark's Cambria page with pdfjs, 140 MB before, 108 after on Node 20
 * (145 → 122 on Node 24); `docmill run --mode fast` over the benchmark's 990 pages, 329–333 MB → 293–294.
 */
import { createRequire } from 'node:module';
import { DocmillError } from '../../errors/docmill-error.js';

/** Drawing is PDFium's in docmill: a pdfjs path that would draw stops here, naming why. */
export class PdfjsCannotDrawError extends DocmillError {
  constructor(what: string) {
    super('PDFJS_CANNOT_DRAW', `pdfjs's ${what} is not available in docmill's engine threads: pages are drawn with PDFium`);
  }
}

/** A 2-D matrix that holds its six numbers (identity when not given), for the one pdfjs's display layer makes. */
class InertDomMatrix {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;
  constructor(init?: readonly number[]) {
    if (init && init.length === 6) [this.a, this.b, this.c, this.d, this.e, this.f] = init as [number, number, number, number, number, number];
  }
  multiplySelf(): never {
    throw new PdfjsCannotDrawError('DOMMatrix arithmetic');
  }
}

class InertImageData {
  constructor() {
    throw new PdfjsCannotDrawError('ImageData');
  }
}

class InertPath2D {
  constructor() {
    throw new PdfjsCannotDrawError('Path2D');
  }
}

export const INERT_CANVAS = Object.freeze({ DOMMatrix: InertDomMatrix, ImageData: InertImageData, Path2D: InertPath2D });

const require = createRequire(import.meta.url);

/** Where pdfjs's display layer would load `@napi-rs/canvas` from; undefined when it is not installed. */
function canvasModulePath(): string | undefined {
  try {
    const fromPdfjs = createRequire(require.resolve('pdfjs-dist/legacy/build/pdf.mjs'));
    return fromPdfjs.resolve('@napi-rs/canvas');
  } catch {
    return undefined;
  }
}

/** A `Response` that has `bytes`, so that the bundles' polyfill check finds it and loads nothing. */
class ResponseWithBytes {
  bytes(): never {
    throw new PdfjsCannotDrawError('Response (while its bundle loads)');
  }
}

/**
 * Sets up what a pdfjs bundle finds while it is evaluated (see above); the returned function puts back what was
 * changed and is called once it is evaluated, whether it threw or not.
 */
export function leanPdfjsEnvironment(): () => void {
  const undo: (() => void)[] = [];
  const canvasPath = canvasModulePath();
  const cache = require.cache;
  if (canvasPath && !cache[canvasPath]) {
    // The entry the module system returns for a loaded module: pdfjs's require() finds it and loads nothing.
    const entry = { id: canvasPath, filename: canvasPath, loaded: true, exports: INERT_CANVAS, children: [], paths: [] };
    cache[canvasPath] = entry as unknown as NodeJS.Module;
    undo.push(() => {
      if (cache[canvasPath] === (entry as unknown as NodeJS.Module)) delete cache[canvasPath];
    });
  }
  const globals = globalThis as unknown as Record<string, unknown>;
  for (const [name, inert] of Object.entries(INERT_CANVAS)) {
    // Where the module cannot be resolved, pdfjs would find no DOMMatrix and fail as it loads.
    if (!canvasPath && globals[name] === undefined) globals[name] = inert;
  }
  const response = Object.getOwnPropertyDescriptor(globalThis, 'Response');
  // Node 20 defines Response as a getter that loads undici on first use. Node 22 and later define a value that any
  // read loads, this one included: there undici loads as it did, and nothing is replaced.
  if (response && response.get) {
    Object.defineProperty(globalThis, 'Response', { value: ResponseWithBytes, configurable: true, writable: true, enumerable: response.enumerable ?? false });
    undo.push(() => Object.defineProperty(globalThis, 'Response', response));
  }
  return () => {
    for (const step of undo.reverse()) step();
  };
}
