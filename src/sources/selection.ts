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
  const includeReach = selection.include?.length ? includesBelow(selection.include, globOptions) : undefined;

  return {
    skipReason(relativePath) {
      if (isTemporaryName(relativePath)) return 'temporary';
      if (exclude?.(relativePath)) return 'excluded';
      if (include && !include(relativePath)) return 'excluded';
      if (!isSupportedExtension(extensionOf(relativePath))) return 'unsupported';
      return undefined;
    },
    excludesWholeDirectory(relativeDirectory) {
      if (includeReach && !includeReach(relativeDirectory)) return true;
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

/**
 * Whether an include pattern may match a path below a directory, for every pattern: `*.pdf` matches files at the
 * top only, so `--include '*.pdf'` need not enter a `node_modules/` of 20,000 files to find none there. The
 * directory's path is matched segment by segment against the pattern's leading segments, a `**` segment reaching
 * everything below; undefined (no folder left out) when a pattern cannot be cut at its slashes: a negation, an
 * escape, a `./` or `..` segment, or a slash inside a brace, bracket or parenthesised group (`{a,b/c}/*.pdf`).
 */
function includesBelow(patterns: readonly string[], options: picomatch.PicomatchOptions): ((relativeDirectory: string) => boolean) | undefined {
  const segmented: ('**' | ((segment: string) => boolean))[][] = [];
  for (const pattern of patterns) {
    const segments = patternSegments(pattern);
    if (segments === undefined) return undefined;
    segmented.push(segments.map((segment) => (segment === '**' ? '**' : picomatch(segment, options))));
  }
  return (relativeDirectory) => {
    const directories = relativeDirectory.split('/');
    return segmented.some((segments) => {
      for (const [depth, directory] of directories.entries()) {
        const segment = segments[depth];
        if (segment === '**') return true;
        // A pattern of no more segments than the directory's path matches nothing below it.
        if (segment === undefined || !segment(directory)) return false;
      }
      return segments.length > directories.length;
    });
  };
}

/** The pattern's segments, or undefined when cutting it at its slashes would change what it matches. */
function patternSegments(pattern: string): string[] | undefined {
  if (pattern.startsWith('!') || pattern.includes('\\')) return undefined;
  let depth = 0;
  for (const character of pattern) {
    if (character === '{' || character === '[' || character === '(') depth++;
    else if ((character === '}' || character === ']' || character === ')') && depth > 0) depth--;
    else if (character === '/' && depth > 0) return undefined;
  }
  const segments = pattern.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
  return segments;
}

function baseNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
