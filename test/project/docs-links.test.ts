/**
 * The documentation holds together: every relative link in README.md, BENCHMARKS.md, bench/README.md and docs/*.md names a file or
 * folder of the repository that exists, every anchor (`#section`) names a heading of its page as GitHub spells the
 * heading's id, and the two top-level pages stay short enough to read (README.md at most 250 lines, BENCHMARKS.md at
 * most 300).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = ['README.md', 'BENCHMARKS.md', 'bench/README.md', ...readdirSync(join(REPO, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The page's lines outside fenced code blocks (``` or ~~~), each with its 1-based line number. */
function proseLines(markdown: string): Array<{ text: string; line: number }> {
  const lines: Array<{ text: string; line: number }> = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, index) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1];
    if (fence === undefined && marker) fence = marker;
    else if (fence !== undefined && marker && marker[0] === fence[0] && marker.length >= fence.length && text.trim() === marker) fence = undefined;
    else if (fence === undefined) lines.push({ text, line: index + 1 });
  });
  return lines;
}

/** A heading's id as GitHub makes it: the rendered text, lowercased, punctuation removed, spaces to hyphens. */
function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '');
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every heading id of a page, duplicates suffixed -1, -2… as GitHub does. */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const base = githubSlug(heading);
    let id = base;
    for (let n = 1; ids.has(id); n += 1) id = `${base}-${n}`;
    ids.add(id);
  }
  return ids;
}

/** Link targets of a page (inline links and images, and reference definitions), outside code. */
function linkTargets(markdown: string): Array<{ target: string; line: number }> {
  const targets: Array<{ target: string; line: number }> = [];
  for (const { text, line } of proseLines(markdown)) {
    const prose = text.replace(/(`+)[\s\S]*?\1/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push({ target: match[1] as string, line });
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/.exec(prose);
    if (definition) targets.push({ target: definition[1] as string, line });
  }
  return targets;
}

/**
 * What is wrong with the links of one page: a file or folder that does not exist, a path that leaves the
 * repository, or an anchor that names no heading of the Markdown page it points into.
 */
function brokenLinks(page: string, markdown: string, read: (path: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const { target, line } of linkTargets(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:…: not a file of the repository
    const [rawPath = '', anchor] = target.split('#', 2);
    const path = decodeURIComponent(rawPath);
    const where = `${page}:${line}: ${target}`;
    if (path === '') {
      if (anchor && !headingIds(markdown).has(anchor)) problems.push(`${where}: no heading with the id "${anchor}"`);
      continue;
    }
    const file = resolve(dirname(join(REPO, page)), path);
    const inRepo = relative(REPO, file);
    if (inRepo.startsWith(`..${sep}`) || inRepo === '..') {
      problems.push(`${where}: leaves the repository`);
      continue;
    }
    if (!existsSync(file)) {
      problems.push(`${where}: no such file or folder`);
      continue;
    }
    if (anchor === undefined || anchor === '' || !file.endsWith('.md')) continue;
    const text = read(file);
    if (text === undefined || !headingIds(text).has(anchor)) problems.push(`${where}: no heading with the id "${anchor}"`);
  }
  return problems;
}

function readPage(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function lineCount(path: string): number {
  return readFileSync(join(REPO, path), 'utf8').replace(/\n$/, '').split('\n').length;
}

describe('the documentation links', () => {
  it('finds the pages to check', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['README.md', 'BENCHMARKS.md', 'docs/cli.md', 'docs/architecture.md']));
  });

  it('bench/README.md lists every benchmark in bench/', () => {
    const listed = readFileSync(join(REPO, 'bench', 'README.md'), 'utf8');
    const benchmarks = readdirSync(join(REPO, 'bench')).filter((name) => name.endsWith('.ts'));
    expect(benchmarks.filter((name) => !listed.includes(`\`${name}\``))).toEqual([]);
  });

  it.each(PAGES)('every relative link and anchor of %s resolves', (page) => {
    const markdown = readFileSync(join(REPO, page), 'utf8');
    expect(brokenLinks(page, markdown, readPage)).toEqual([]);
  });
});

describe('the link checker', () => {
  it('spells heading ids as GitHub does', () => {
    expect(githubSlug('`status`, `failed`, `resume`')).toBe('status-failed-resume');
    expect(githubSlug('4. Local engine formats: `bench/formats.ts`')).toBe('4-local-engine-formats-benchformatsts');
    expect(githubSlug("The API's limits")).toBe('the-apis-limits');
    expect(githubSlug('PDF: which library does what')).toBe('pdf-which-library-does-what');
    expect(githubSlug('Links [to docs](cli.md) and snake_case')).toBe('links-to-docs-and-snake_case');
    expect([...headingIds('# A\n## Usage\n```sh\n# not a heading\n```\n## Usage\n### Usage\n')]).toEqual(['a', 'usage', 'usage-1', 'usage-2']);
  });

  it('reports a missing file, a missing anchor and a path out of the repository, and ignores code and URLs', () => {
    const page = [
      '# Page',
      '## Here',
      '[fine](#here) [fine too](../src/) [gone](missing-page.md) [no anchor](cli.md#no-such-heading) [not here](#there)',
      '[out](../../outside.md) [web](https://example.com/x.md) `[code](nowhere.md)`',
      '```md',
      '[fenced](nowhere.md)',
      '```',
      '[ref]: ./also-missing.md',
    ].join('\n');
    const problems = brokenLinks('docs/page.md', page, readPage);
    expect(problems).toEqual([
      'docs/page.md:3: missing-page.md: no such file or folder',
      'docs/page.md:3: cli.md#no-such-heading: no heading with the id "no-such-heading"',
      'docs/page.md:3: #there: no heading with the id "there"',
      'docs/page.md:4: ../../outside.md: leaves the repository',
      'docs/page.md:8: ./also-missing.md: no such file or folder',
    ]);
  });
});

describe('the top-level pages stay short', () => {
  it('README.md has at most 250 lines', () => {
    expect(lineCount('README.md')).toBeLessThanOrEqual(250);
  });

  it('BENCHMARKS.md has at most 300 lines', () => {
    expect(lineCount('BENCHMARKS.md')).toBeLessThanOrEqual(300);
  });
});
