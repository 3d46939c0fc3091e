/** Where the PDF benchmark's pages are found when no --dir is given (bench/pdf-bench.ts, bench/pdf-run.ts). */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** `../shared/pdf-bench` beside the repository, or beside the main checkout when `repo` is a git worktree. */
export async function defaultPdfBenchDirs(repo: string): Promise<string[]> {
  const dirs = [resolve(repo, '../shared/pdf-bench')];
  try {
    const { stdout } = await promisify(execFile)('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repo });
    dirs.push(resolve(stdout.trim(), '../../shared/pdf-bench'));
  } catch {
    // not a git checkout: the first place only
  }
  return [...new Set(dirs)];
}

/** A folder of the benchmark's shape: pdfs/ and their ground-truth/. */
export const isPdfBenchDir = (dir: string): boolean => existsSync(join(dir, 'pdfs')) && existsSync(join(dir, 'ground-truth'));
