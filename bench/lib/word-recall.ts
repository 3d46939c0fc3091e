/**
 * Word recall of a converter's Markdown against reference Markdown, for the formats benchmark.
 *
 * Both texts are first reduced to their words by `markdownWords`: Markdown and HTML syntax is removed (front
 * matter, tags, link and image targets, `{#id}` attributes, table rules, markers), then the text is NFKC-normalised,
 * lowercased and split into runs of letters, marks and digits (so punctuation never counts, and "don't" is
 * "don" + "t" on both sides alike). Recall is the share of the reference's words, counted as a multiset, that the
 * output also has: Σ min(reference[w], output[w]) / Σ reference[w]. Extra words in the output cost nothing;
 * a word the reference repeats five times must appear five times to count five times.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Markdown (or Markdown with inline HTML) → its plain text, the syntax removed. */
export function stripMarkdown(markdown: string): string {
  return (
    markdown
      // YAML front matter: metadata about the file, not its content.
      .replace(/^\uFEFF?---\r?\n(?:[A-Za-z_][\w .-]*:.*\r?\n|[ \t]+.*\r?\n)*---[ \t]*(?:\r?\n|$)/, '')
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<\/?[A-Za-z][^<>]*>/g, ' ')
      .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
        if (name[0] === '#') {
          const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
          return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
        }
        return ENTITIES[name.toLowerCase()] ?? whole;
      })
      // Images and links keep their text, lose their target: ![alt](src), [text](href "title"), [text][ref].
      // Images first, so that a linked image [![alt](src)](href) becomes a plain link.
      .replace(/!\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, '$1')
      .replace(/\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, '$1')
      .replace(/!?\[([^\]]*)\]\[[^\]]*\]/g, '$1')
      .replace(/^\s{0,3}\[[^\]]+\]:\s+\S+.*$/gm, ' ')
      .replace(/<?(?:https?|ftp|mailto|data):[^\s)>\]|]+>?/gi, ' ')
      // Heading ids and attribute lists: {#duck}, {width=50%}.
      .replace(/\{[#.][^{}\n]*\}/g, ' ')
      // Table rules and pipes, thematic breaks, fences, heading / quote / list markers.
      .replace(/^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/gm, ' ')
      .replace(/^\s*(?:[-*_]\s*){3,}$/gm, ' ')
      .replace(/^\s*(?:```|~~~).*$/gm, ' ')
      .replace(/^\s{0,3}(?:#{1,6}|>+)\s/gm, ' ')
      .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/gm, ' ')
  );
}

/** The words of a plain text: NFKC, lowercased, runs of letters/marks/digits. */
export function textWords(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
}

/** The words of a Markdown text: syntax removed, then as `textWords`. */
export function markdownWords(markdown: string): string[] {
  return textWords(stripMarkdown(markdown));
}

export function wordCounts(words: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** Share of the reference's words (a multiset) found in the output; undefined when the reference has none. */
export function wordRecall(referenceMarkdown: string, outputMarkdown: string): number | undefined {
  const reference = wordCounts(markdownWords(referenceMarkdown));
  const output = wordCounts(markdownWords(outputMarkdown));
  let total = 0;
  let found = 0;
  for (const [word, count] of reference) {
    total += count;
    found += Math.min(count, output.get(word) ?? 0);
  }
  return total === 0 ? undefined : found / total;
}
