/** The containment check behind every file-system path the fs store touches. */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { PathEscapeError } from './store-errors.js';

/** Whether `candidate` is strictly below `root` (lexically: symbolic links inside the root are not followed). */
export function isInside(root: string, candidate: string): boolean {
  const fromRoot = relative(resolve(root), resolve(candidate));
  if (fromRoot === '' || isAbsolute(fromRoot)) return false;
  return fromRoot !== '..' && !fromRoot.startsWith(`..${sep}`);
}

/**
 * The absolute path of `key` below `root`, or PathEscapeError. Keys come from safeRelativePath, so this never
 * fires unless something upstream is broken: it is defence in depth, checked on every read and write.
 */
export function resolveInside(root: string, key: string): string {
  const absolute = resolve(root, key);
  if (!isInside(root, absolute)) throw new PathEscapeError(key, root);
  return absolute;
}
