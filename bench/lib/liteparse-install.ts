/**
 * LiteParse (`@llamaindex/liteparse`, Apache-2.0: Rust + PDFium, a native module with prebuilt packages per
 * platform) for the PDF benchmark, run alone as a user runs it. docmill's engine depends on the same pinned version;
 * the benchmark still installs its own copy into ~/.cache/docmill-bench/liteparse (cached-package.ts), so the
 * LiteParse row measures the package as published, in its own process pool.
 */
import { ensureCachedPackage } from './cached-package.js';

export const LITEPARSE_VERSION = '2.14.7';

/** The module entry of the pinned LiteParse, installed first when absent or of another version. */
export function ensureLiteParse(log?: (line: string) => void): Promise<string> {
  return ensureCachedPackage({ name: '@llamaindex/liteparse', version: LITEPARSE_VERSION, folder: 'liteparse', entry: 'dist/lib.js' }, log);
}
