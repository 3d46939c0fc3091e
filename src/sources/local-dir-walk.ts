/**
 * The depth-first scan behind LocalDirSource.list(). It keeps only the directories on the current path in memory
 * (each with its sorted entry names), never the tree, and yields entries as it goes.
 *
 * Symlinks: one pointing inside the root is followed, and what it leads to is listed under the link's own path;
 * one pointing outside the root is skipped; one leading back to a directory on the current path (an ancestor,
 * or the root) is a loop and skipped. Anything that would make a walk endless passes through such an ancestor,
 * so checking the current path is enough to always terminate.
 */
import { statSync, type Dirent, type Stats } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { childPath, entryName, pathText, type EntryName, type FsPath } from './byte-paths.js';
import { RECORDS_FOLDER } from '../common/records-folder.js';
import { isDocmillFolder } from './docmill-outputs.js';
import type { InlineFileCalls } from '../common/inline-file-calls.js';
import { errorCodeOf, SourceListError } from './errors.js';
import type { IgnoredSubtrees } from './ignored-subtrees.js';
import { fileEntry, skippedEntry } from './list-entries.js';
import { localSourceFile } from './local-file.js';
import { isSameOrInside } from './paths.js';
import type { EntrySelector } from './selection.js';
import type { ListEntry, SkipReason } from './source.js';

export interface WalkOptions {
  /** Absolute path of the root directory. */
  root: string;
  /** For error messages: the location as the user gave it. */
  location: string;
  selector: EntrySelector;
  ignored: IgnoredSubtrees;
  /** Decides whether a file's stat is made inline (common/inline-file-calls.ts). */
  fileCalls: InlineFileCalls;
  signal?: AbortSignal | undefined;
}

interface OpenDirectory {
  /** Bytes below a name that is not UTF-8 (byte-paths.ts). */
  absolutePath: FsPath;
  /** '' for the root. */
  relativePath: string;
  /** Its text (byte-paths.ts), for comparisons. */
  realPath: string;
  entries: NamedEntry[];
  next: number;
}

/** A directory entry with its name read as bytes, so that a name which is not UTF-8 still names its file. */
interface NamedEntry {
  name: EntryName;
  dirent: Dirent<Buffer>;
}

/** What one directory entry turned out to be. */
type Visit = { kind: 'entry'; entry: ListEntry } | { kind: 'descend'; directory: OpenDirectory } | { kind: 'ignore' };

export async function* walkLocalDirectory(options: WalkOptions): AsyncGenerator<ListEntry> {
  const { root, location, signal } = options;
  let rootRealPath: string;
  let rootEntries: NamedEntry[];
  try {
    rootRealPath = await realPathText(root);
    rootEntries = await readSortedEntries(root);
  } catch (error) {
    throw new SourceListError(location, `the folder cannot be read (${errorCodeOf(error)})`, error);
  }

  const stack: OpenDirectory[] = [
    { absolutePath: root, relativePath: '', realPath: rootRealPath, entries: rootEntries, next: 0 },
  ];
  /** Realpaths of the directories on the current path: entering one of them again would loop. */
  const onCurrentPath = new Set([rootRealPath]);
  const visitor = new EntryVisitor(options, rootRealPath, onCurrentPath);

  while (stack.length > 0) {
    signal?.throwIfAborted();
    const directory = stack[stack.length - 1]!;
    const dirent = directory.entries[directory.next++];
    if (dirent === undefined) {
      stack.pop();
      onCurrentPath.delete(directory.realPath);
      continue;
    }
    const visit = await visitor.visit(directory, dirent);
    if (visit.kind === 'entry') yield visit.entry;
    else if (visit.kind === 'descend') {
      stack.push(visit.directory);
      onCurrentPath.add(visit.directory.realPath);
    }
  }
}

class EntryVisitor {
  constructor(
    private readonly options: WalkOptions,
    private readonly rootRealPath: string,
    private readonly onCurrentPath: ReadonlySet<string>,
  ) {}

  async visit(parent: OpenDirectory, { name, dirent }: NamedEntry): Promise<Visit> {
    const absolutePath = childPath(parent.absolutePath, name);
    const relativePath = parent.relativePath === '' ? name.text : `${parent.relativePath}/${name.text}`;
    // The parent's realpath plus the name is this entry's realpath unless the entry itself is a symlink.
    const realPathUnlessLink = join(parent.realPath, name.text);
    if (this.options.ignored.contains(pathText(absolutePath), realPathUnlessLink)) return { kind: 'ignore' };

    const type = await entryTypeOf(dirent, absolutePath);
    if (type instanceof Error) return skipped(relativePath, 'unreadable', errorCodeOf(type));
    if (type === 'symlink') return this.visitSymlink(absolutePath, relativePath);
    if (type === 'directory') return this.enterDirectory(absolutePath, relativePath, realPathUnlessLink);
    if (type === 'file') return this.visitFile(absolutePath, relativePath);
    return this.visitSpecialFile(relativePath, type);
  }

  private async visitSymlink(absolutePath: FsPath, relativePath: string): Promise<Visit> {
    let target: string;
    let stats: Stats;
    try {
      target = await realPathText(absolutePath);
    } catch (error) {
      // A dangling link (ENOENT), a chain of links too long to resolve (ELOOP), or a target we may not reach.
      const code = errorCodeOf(error);
      if (code === 'ENOENT') return skipped(relativePath, 'symlink-dangling', code);
      if (code === 'ELOOP') return skipped(relativePath, 'symlink-loop', code);
      return skipped(relativePath, 'unreadable', code);
    }
    if (!isSameOrInside(this.rootRealPath, target)) return skipped(relativePath, 'symlink-outside-root', target);
    if (this.options.ignored.contains(target)) return { kind: 'ignore' };
    try {
      stats = await stat(absolutePath);
    } catch (error) {
      return skipped(relativePath, 'unreadable', errorCodeOf(error));
    }
    if (stats.isDirectory()) return this.enterDirectory(absolutePath, relativePath, target);
    if (!stats.isFile()) return this.visitSpecialFile(relativePath, typeFromDirent(stats) ?? 'special');
    const reason = this.options.selector.skipReason(relativePath);
    return reason ? skipped(relativePath, reason) : this.listedFile(absolutePath, relativePath, stats);
  }

  private async enterDirectory(absolutePath: FsPath, relativePath: string, realPath: string): Promise<Visit> {
    // Checked for plain directories too: below a followed link, a plain directory can be an ancestor again.
    if (this.onCurrentPath.has(realPath)) return skipped(relativePath, 'symlink-loop', realPath);
    if (this.options.selector.excludesWholeDirectory(relativePath)) {
      return skipped(relativePath, 'excluded', 'directory');
    }
    try {
      const entries = await readSortedEntries(absolutePath);
      const name = relativePath.slice(relativePath.lastIndexOf('/') + 1);
      const hasRecordsFolder = entries.some((entry) => entry.name.text === RECORDS_FOLDER && entry.dirent.isDirectory());
      if (isDocmillFolder(absolutePath, name, hasRecordsFolder)) return skipped(relativePath, 'docmill-output');
      return { kind: 'descend', directory: { absolutePath, relativePath, realPath, entries, next: 0 } };
    } catch (error) {
      return skipped(relativePath, 'unreadable', errorCodeOf(error));
    }
  }

  private async visitFile(absolutePath: FsPath, relativePath: string): Promise<Visit> {
    // The name decides most skips: check it before spending a stat.
    const reason = this.options.selector.skipReason(relativePath);
    if (reason) return skipped(relativePath, reason);
    try {
      const stats = await this.options.fileCalls.call(() => statSync(absolutePath), () => stat(absolutePath));
      return this.listedFile(absolutePath, relativePath, stats);
    } catch (error) {
      return skipped(relativePath, 'unreadable', errorCodeOf(error));
    }
  }

  private listedFile(absolutePath: FsPath, relativePath: string, stats: Stats): Visit {
    return { kind: 'entry', entry: fileEntry(localSourceFile(absolutePath, relativePath, stats)) };
  }

  /** FIFOs, sockets, devices: never read (opening a FIFO blocks), but reported, whatever their name. */
  private visitSpecialFile(relativePath: string, type: string): Visit {
    const reason = this.options.selector.skipReason(relativePath);
    return skipped(relativePath, reason ?? 'unsupported', reason ? undefined : `not a regular file (${type})`);
  }
}

type EntryType = 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'device' | 'special';

/** The entry's type from the directory listing, with an lstat for file systems that do not report types. */
async function entryTypeOf(dirent: Dirent<Buffer>, absolutePath: FsPath): Promise<EntryType | Error> {
  const known = typeFromDirent(dirent);
  if (known !== undefined) return known;
  try {
    return typeFromDirent(await lstat(absolutePath)) ?? 'special';
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

type TypeQueries = Pick<Dirent, 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isBlockDevice' | 'isCharacterDevice'>;

function typeFromDirent(entry: TypeQueries): EntryType | undefined {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFIFO()) return 'fifo';
  if (entry.isSocket()) return 'socket';
  if (entry.isBlockDevice() || entry.isCharacterDevice()) return 'device';
  return undefined;
}

/** A directory's entries, sorted by name (code unit order, independent of locale) so listings are repeatable. */
async function readSortedEntries(path: FsPath): Promise<NamedEntry[]> {
  const dirents = await readdir(path, { withFileTypes: true, encoding: 'buffer' });
  const entries = dirents.map((dirent) => ({ name: entryName(dirent.name), dirent }));
  return entries.sort((a, b) => (a.name.text < b.name.text ? -1 : a.name.text > b.name.text ? 1 : 0));
}

/** The realpath of `path` as text (byte-paths.ts), for comparisons: its names that are not UTF-8 written `%XX`. */
async function realPathText(path: FsPath): Promise<string> {
  return pathText(await realpath(path, { encoding: 'buffer' }));
}

function skipped(relativePath: string, reason: SkipReason, detail?: string): Visit {
  return { kind: 'entry', entry: skippedEntry(relativePath, reason, detail) };
}
