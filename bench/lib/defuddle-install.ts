/**
 * defuddle (MIT, npm) for the web-page main-content benchmark. It is not a dependency of docmill: the benchmark
 * installs the pinned version into ~/.cache/docmill-bench/defuddle (cached-package.ts).
 */
import { ensureCachedPackage } from './cached-package.js';

const DEFUDDLE_VERSION = '0.19.4';

/** The `defuddle/node` module entry of the pinned defuddle, installed first when absent or of another version. */
export function ensureDefuddle(log?: (line: string) => void): Promise<string> {
  return ensureCachedPackage({ name: 'defuddle', version: DEFUDDLE_VERSION, folder: 'defuddle', entry: 'dist/node.js' }, log);
}
