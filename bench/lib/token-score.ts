/**
 * Token precision, recall and F1 of an extracted text against a ground-truth main text, as the article-extraction
 * benchmarks score a page: both texts are cut into word tokens and compared as bags (multisets), so order and
 * formatting never count and a word the truth holds three times counts three times at most.
 *
 * - tokens: the text lowercased, maximal runs of Unicode letters, digits and marks (`\p{L}\p{N}\p{M}`);
 * - tp = Σ min(truth[w], output[w]); precision = tp / |output|, recall = tp / |truth|, F1 their harmonic mean;
 * - an empty output scores 0 on all three (the page had an article, nothing of it came out); a page whose truth has
 *   no token is not scored (`undefined`).
 */

export interface TokenScore {
  precision: number;
  recall: number;
  f1: number;
  /** Token counts, for sums over pages. */
  tp: number;
  output: number;
  truth: number;
}

export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

function bag(tokens: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

export function tokenScore(truthText: string, outputText: string): TokenScore | undefined {
  const truth = wordTokens(truthText);
  if (truth.length === 0) return undefined;
  const output = wordTokens(outputText);
  const truthBag = bag(truth);
  let tp = 0;
  for (const [token, count] of bag(output)) tp += Math.min(count, truthBag.get(token) ?? 0);
  const precision = output.length === 0 ? 0 : tp / output.length;
  const recall = tp / truth.length;
  const f1 = tp === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, tp, output: output.length, truth: truth.length };
}

/** Mean of the per-page precision, recall and F1 (the benchmarks' headline figures). */
export function meanScores(scores: TokenScore[]): { precision: number; recall: number; f1: number } {
  const mean = (pick: (score: TokenScore) => number) => (scores.length === 0 ? 0 : scores.reduce((sum, score) => sum + pick(score), 0) / scores.length);
  return { precision: mean((s) => s.precision), recall: mean((s) => s.recall), f1: mean((s) => s.f1) };
}
