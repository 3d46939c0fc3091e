/**
 * Folders a local source must not list, such as the output folder when it lies inside the source root
 * (`docmill run . --out ./out`): listing it would feed docmill's own outputs back in as inputs. A folder that holds
 * the source root (`docmill run ./docs --out .`) hides nothing of it: the outputs and docmill's records go beside the
 * source, not into it, and ignoring it would list nothing at all.
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

  /** `sourceRoot`: the root listed; an ignored folder that is it or holds it is dropped. */
  static async resolve(paths: readonly string[] | undefined, sourceRoot?: string): Promise<IgnoredSubtrees> {
    if (!paths?.length) return IgnoredSubtrees.none;
    const source = sourceRoot === undefined ? undefined : [resolve(sourceRoot), await realpathOfPossiblyMissing(resolve(sourceRoot))];
    const roots = new Set<string>();
    for (const path of paths) {
      const absolute = resolve(path);
      const forms = [absolute, await realpathOfPossiblyMissing(absolute)];
      if (source && forms.some((form) => source.some((root) => isSameOrInside(form, root)))) continue;
      for (const form of forms) roots.add(form);
    }
    return roots.size === 0 ? IgnoredSubtrees.none : new IgnoredSubtrees([...roots]);
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
