/**
 * Loads LiteParse (`@llamaindex/liteparse`: Rust + PDFium as a prebuilt native module, one optional package per
 * platform) once per engine thread. Where no prebuilt module loads (a platform without a package, a libc it was
 * not built for, an install that skipped optional packages), the package's entry throws on import; docmill then
 * reads PDFs with its built-in pdfjs path alone, which gives the same outputs, and says so in one log line.
 */

import type * as LiteParsePackage from '@llamaindex/liteparse';

/** The package's module, as docmill uses it. */
export type LiteParseModule = typeof LiteParsePackage;

const PACKAGE = '@llamaindex/liteparse';
let specifier = PACKAGE;

/**
 * Loads another module in place of the package from now on (a file URL or a specifier; undefined: the package).
 * For tests: a module that throws on import, as the package does without its native module, takes the fallback
 * path for real. The engine thread sets it from its pool's `liteParseModule` before it reads any document.
 */
export function useLiteParseModule(module: string | undefined): void {
  specifier = module ?? PACKAGE;
}

/** Per module specifier: each is imported once, and its failure logged once. */
const loads = new Map<string, Promise<LiteParseModule | undefined>>();

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The loaded module, or undefined when it cannot load here (logged once per thread). */
export function loadLiteParse(): Promise<LiteParseModule | undefined> {
  let load = loads.get(specifier);
  if (!load) {
    load = (async () => {
      try {
        return (await import(specifier)) as LiteParseModule;
      } catch (error) {
        // Once per thread: every PDF this thread reads takes the pdfjs path from now on.
        console.warn(`docmill: LiteParse could not be loaded (${describe(error)}); PDFs are read with the built-in pdfjs path`);
        return undefined;
      }
    })();
    loads.set(specifier, load);
  }
  return load;
}
