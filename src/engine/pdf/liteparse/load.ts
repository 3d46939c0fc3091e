/**
 * Loads LiteParse's native module (`@llamaindex/liteparse`: Rust + PDFium, prebuilt, one optional package per
 * platform) once per engine thread: its own copy where the thread was given one (native-copies.ts), so that the
 * threads read PDFs side by side, else the package's. docmill calls the module's parser itself, as LiteParse's
 * JavaScript wrapper does (the same options, the same result, without the wrapper's copy of the bytes and of every
 * text item); the version is pinned in package.json. Where no prebuilt module loads (a platform without a package,
 * a libc it was not built for, an install that skipped optional packages), docmill reads PDFs with its built-in
 * pdfjs path alone, which gives the same outputs, and says so in one log line.
 */
import { createRequire } from 'node:module';
import type { LiteParseConfig } from '@llamaindex/liteparse';
import { copiesSupported, nativeCopyPath, nativePackages } from './native-copies.js';

/** A LiteParse parser: `parse` reads a PDF's bytes (a Buffer) into LiteParse's native result. */
export interface LiteParseParser {
  parse(input: Buffer): Promise<unknown>;
}

/** What docmill uses of LiteParse: its parser class, taking the options its wrapper takes. */
export interface LiteParseModule {
  LiteParse: new (config: Partial<LiteParseConfig>) => LiteParseParser;
}

let specifier: string | undefined;
let copy = 0;
let copyRoots: readonly string[] = [];

/**
 * Loads another module in place of LiteParse's from now on (a file URL or a specifier; undefined: LiteParse's).
 * For tests: a module that throws on import, as the package does without its native module, takes the fallback
 * path for real. The engine thread sets it from its pool's `liteParseModule` before it reads any document.
 */
export function useLiteParseModule(module: string | undefined): void {
  specifier = module;
}

/** The copy of the native module this thread loads (0: the package's own), and where copies may be made. */
export function useNativeCopy(index: number, roots: readonly string[]): void {
  copy = copiesSupported() ? index : 0;
  copyRoots = roots;
}

/** Per module (a specifier, or the native module's copy): each is loaded once, and its failure logged once. */
const loads = new Map<string, Promise<LiteParseModule | undefined>>();

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const requireNative = createRequire(import.meta.url);

/** The package's native module, from this thread's copy; the package's own when the copy cannot be had. */
async function loadNativeModule(): Promise<LiteParseModule> {
  const packages = nativePackages();
  const reasons: string[] = [];
  for (const pkg of packages) {
    if (copy > 0) {
      try {
        return requireNative(await nativeCopyPath(pkg, copy, copyRoots)) as LiteParseModule;
      } catch (error) {
        // Once per thread: this thread shares the package's module, so its PDFs wait for the other threads'.
        console.warn(`docmill: LiteParse's native module could not be had for this engine thread (${describe(error)}); it shares the package's module and reads one PDF at a time with the threads that do`);
      }
    }
    try {
      return requireNative(`${pkg.dir}/${pkg.main}`) as LiteParseModule;
    } catch (error) {
      reasons.push(`${pkg.name}: ${describe(error)}`);
    }
  }
  const tried = reasons.length > 0 ? `: ${reasons.join('; ')}` : ' (no prebuilt package is installed)';
  throw new Error(`Failed to load native module for ${process.platform}-${process.arch}${tried}`);
}

/** The loaded module, or undefined when it cannot load here (logged once per thread). */
export function loadLiteParse(): Promise<LiteParseModule | undefined> {
  const key = specifier ?? `native ${copy}`;
  let load = loads.get(key);
  if (!load) {
    const loading = specifier === undefined ? loadNativeModule() : (import(specifier) as Promise<LiteParseModule>);
    load = loading.catch((error: unknown) => {
      // Once per thread: every PDF this thread reads takes the pdfjs path from now on.
      console.warn(`docmill: LiteParse could not be loaded (${describe(error)}); PDFs are read with the built-in pdfjs path`);
      return undefined;
    });
    loads.set(key, load);
  }
  return load;
}
