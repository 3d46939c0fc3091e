/**
 * Which files a source lists: the one rule shared by every source (local folders, S3), so a file is selected or
 * skipped for the same reason wherever it lives.
 *
 * Order of the checks: docmill's own temporary files first (they are never documents, whatever the globs say),
 * then the user's include/exclude globs, then the supported extensions.
 */
import picomatch from 'picomatch';
import { extensionOf, isSupportedExtension } from '../contract/extensions.js';
import { TEMP_MARKER } from '../common/atomic-file.js';
import type { SkipReason, SourceSelection } from './source.js';

/** The skip reasons a file's path alone decides (the others need the file system). */
export type SelectionSkipReason = Extract<SkipReason, 'temporary' | 'excluded' | 'unsupported'>;

export interface EntrySelector {
  /** Why the file at this '/'-separated relative path is not listed, or undefined when it is. */
  skipReason(relativePath: string): SelectionSkipReason | undefined;
  /**
   * True when every path below this directory is excluded, so a walk can skip it whole (one `excluded` entry for
   * the directory instead of one per file, and no time spent in `node_modules/` or `.git/`).
   */
  excludesWholeDirectory(relativeDirectory: string): boolean;
}

/** Whether a file name (or path) is a docmill temporary file, left by an interrupted atomic write. */
export function isTemporaryName(pathOrName: string): boolean {
  return baseNameOf(pathOrName).includes(TEMP_MARKER);
}

/**
 * Globs are picomatch patterns on the '/'-separated relative path, with `dot: true` (hidden files can be documents).
 * An empty `include` list means "no include filter", the same as leaving it out.
 */
export function createEntrySelector(selection: SourceSelection = {}): EntrySelector {
  const globOptions = { dot: true };
  const include = selection.include?.length ? picomatch(selection.include, globOptions) : undefined;
  const exclude = selection.exclude?.length ? picomatch(selection.exclude, globOptions) : undefined;
  const wholeDirectoryExcludes = (selection.exclude ?? []).flatMap((pattern) => {
    const prefix = wholeSubtreePrefix(pattern);
    return prefix === undefined ? [] : [prefix === '' ? () => true : picomatch(prefix, globOptions)];
  });

  return {
    skipReason(relativePath) {
      if (isTemporaryName(relativePath)) return 'temporary';
      if (exclude?.(relativePath)) return 'excluded';
      if (include && !include(relativePath)) return 'excluded';
      if (!isSupportedExtension(extensionOf(relativePath))) return 'unsupported';
      return undefined;
    },
    excludesWholeDirectory(relativeDirectory) {
      return wholeDirectoryExcludes.some((matches) => matches(relativeDirectory));
    },
  };
}

/**
 * For a pattern `P/**`, the part `P`: when `P` matches a directory, `P/**` matches everything below it (with
 * `dot: true`, `**` matches any path), so the directory can be skipped without entering it. `**` alone gives ''
 * (everything). Negations and other patterns give undefined: they say nothing certain about a whole subtree.
 */
function wholeSubtreePrefix(pattern: string): string | undefined {
  if (pattern.startsWith('!')) return undefined;
  if (pattern === '**') return '';
  if (!pattern.endsWith('/**')) return undefined;
  const prefix = pattern.slice(0, -'/**'.length);
  return prefix === '' ? undefined : prefix;
}

function baseNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
