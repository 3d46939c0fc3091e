/**
 * The `summary` format, computed locally and extractively: the few sentences that best cover the document's
 * frequent content words, in their original order. No model is called; it never invents text.
 */
const STOPWORDS = new Set(
  ('a an the and or but if then else of to in on at by for with from as is are was were be been being it its this ' +
    'that these those there here which who whom whose what when where why how not no nor so than too very can will ' +
    'just do does did done have has had having i you he she we they them his her our your their my me us also into ' +
    'over under about after before between through during without within upon such may might must shall should would could')
    .split(' '),
);

const MAX_SENTENCES = 5;
const MAX_CHARACTERS = 1200;

/** Markdown reduced to prose: no tables, code, markers, link targets or emphasis marks. */
function proseOf(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .split('\n')
    .filter((line) => !line.trim().startsWith('|') && line.trim() !== '---')
    .map((line) => line.replace(/^#{1,6}\s+/, '').replace(/^\s*([-*+]|\d+[.)])\s+/, ''))
    .join('\n')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]/g, '');
}

function words(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}[\p{L}\p{N}'-]*/gu) ?? []).filter((word) => word.length > 2 && !STOPWORDS.has(word));
}

export function summarise(markdown: string): string {
  const prose = proseOf(markdown);
  const sentences = prose
    .split(/(?<=[.!?。！？])\s+|\n{2,}/u)
    .map((sentence) => sentence.replace(/\s+/g, ' ').trim())
    .filter((sentence) => sentence.length >= 20 && words(sentence).length >= 3);
  if (sentences.length === 0) return prose.replace(/\s+/g, ' ').trim().slice(0, MAX_CHARACTERS);
  const frequency = new Map<string, number>();
  for (const sentence of sentences) for (const word of words(sentence)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const scored = sentences.map((sentence, index) => {
    const sentenceWords = words(sentence);
    const score = sentenceWords.reduce((sum, word) => sum + (frequency.get(word) ?? 0), 0) / Math.sqrt(sentenceWords.length);
    // A slight preference for early sentences: documents tend to state their point first.
    return { sentence, index, score: score * (1 + 0.5 / (1 + index)) };
  });
  const chosen = scored
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.index - b.index);
  let summary = '';
  for (const { sentence } of chosen) {
    if (summary.length + sentence.length + 1 > MAX_CHARACTERS && summary !== '') break;
    summary += (summary ? ' ' : '') + sentence;
  }
  return summary;
}
