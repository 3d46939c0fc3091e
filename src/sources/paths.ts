/**
 * Path arithmetic for local sources: containment checks and '/'-separated relative paths, on any platform.
 */
import { isAbsolute, relative, sep } from 'node:path';

/** Whether `path` is `parent` itself or lies below it. Both must be absolute and normalised (or both realpaths). */
export function isSameOrInside(parent: string, path: string): boolean {
  const fromParent = relative(parent, path);
  return fromParent === '' || (fromParent !== '..' && !fromParent.startsWith(`..${sep}`) && !isAbsolute(fromParent));
}

/** The path of `path` below `root`, '/'-separated (the form every SourceFile uses, on Windows too). */
export function toRelativePath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}
