/**
 * The web-page benchmark's token scorer (bench/lib/token-score.ts), on hand-made texts whose scores are worked out
 * in the comments.
 */
import { describe, expect, it } from 'vitest';
import { meanScores, tokenScore, wordTokens } from '../../bench/lib/token-score.js';

describe('token precision, recall and F1', () => {
  it('cuts words at punctuation and Markdown, lowercased, letters of any script kept', () => {
    expect(wordTokens('## Hello, *World*! l’été [link](x) 2026')).toEqual(['hello', 'world', 'l', 'été', 'link', 'x', '2026']);
  });

  it('compares bags of words: order never counts, a repeated word counts as often as the truth has it', () => {
    // truth: the×2 cat sat (4 tokens); output: sat the the the cat menu (6). tp = min(2,3) + 1 + 1 = 4.
    const score = tokenScore('The cat sat the', 'sat the the the cat menu');
    expect(score?.tp).toBe(4);
    expect(score?.precision).toBeCloseTo(4 / 6, 12);
    expect(score?.recall).toBe(1);
    expect(score?.f1).toBeCloseTo(0.8, 12);
  });

  it('scores an empty output 0 and leaves a page without truth unscored', () => {
    expect(tokenScore('some words', ' ')).toMatchObject({ precision: 0, recall: 0, f1: 0 });
    expect(tokenScore(' … ', 'anything')).toBeUndefined();
  });

  it('averages pages, each page weighing the same', () => {
    const perfect = tokenScore('a b', 'a b');
    const half = tokenScore('a b', 'a');
    expect(meanScores([perfect, half].filter((s) => s !== undefined))).toEqual({ precision: 1, recall: 0.75, f1: (1 + 2 / 3) / 2 });
  });
});
