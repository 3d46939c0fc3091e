/**
 * Folders a local source must not list, such as the output folder when it lies inside the source root
 * (`docmill run . --out ./out`): listing it would feed docmill's own outputs back in as inputs.
 *
 * A path is compared both as given and as its realpath, because the root may be reached through a symlink
 * (`/tmp` is `/private/tmp` on macOS) while the caller resolved the output folder another way. The output folder
 * may not exist yet when the source is created, so its realpath is that of its deepest existing ancestor plus the
 * missing tail.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { isSameOrInside } from './paths.js';

export class IgnoredSubtrees {
  private constructor(private readonly roots: readonly string[]) {}

  static readonly none = new IgnoredSubtrees([]);

  static async resolve(paths: readonly string[] | undefined): Promise<IgnoredSubtrees> {
    if (!paths?.length) return IgnoredSubtrees.none;
    const roots = new Set<string>();
    for (const path of paths) {
      const absolute = resolve(path);
      roots.add(absolute);
      roots.add(await realpathOfPossiblyMissing(absolute));
    }
    return new IgnoredSubtrees([...roots]);
  }

  /** Whether any of these absolute paths (a logical path and its realpath, say) lies in an ignored subtree. */
  contains(...paths: (string | undefined)[]): boolean {
    return this.roots.some((root) => paths.some((path) => path !== undefined && isSameOrInside(root, path)));
  }
}

async function realpathOfPossiblyMissing(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return join(await realpathOfPossiblyMissing(parent), basename(path));
  }
}
