/**
 * A page's scores as opendataloader-bench's src/evaluator.py combines them: NID, TEDS and MHS (and their
 * structure-only companions), each undefined where the reference lacks the element; overall = the mean of the
 * ones defined. A benchmark figure is the mean over the pages that have the score.
 */
import { headingScores } from './headings.js';
import { readingOrderScores } from './reading-order.js';
import { tableScores } from './tables.js';

export interface PageScores {
  overall: number | undefined;
  nid: number | undefined;
  nidS: number | undefined;
  teds: number | undefined;
  tedsS: number | undefined;
  mhs: number | undefined;
  mhsS: number | undefined;
}

export const SCORE_NAMES = ['overall', 'nid', 'nidS', 'teds', 'tedsS', 'mhs', 'mhsS'] as const;
export type ScoreName = (typeof SCORE_NAMES)[number];

export function mean(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : values.reduce((sum, v) => sum + v, 0) / values.length;
}

export function scorePage(reference: string, output: string): PageScores {
  const order = readingOrderScores(reference, output);
  const tables = tableScores(reference, output);
  const headings = headingScores(reference, output);
  const parts = [order?.nid, tables?.teds, headings?.mhs].filter((v): v is number => v !== undefined);
  return {
    overall: mean(parts),
    nid: order?.nid,
    nidS: order?.nidS,
    teds: tables?.teds,
    tedsS: tables?.tedsS,
    mhs: headings?.mhs,
    mhsS: headings?.mhsS,
  };
}

export interface MeanScore {
  mean: number | undefined;
  /** Pages that have the score. */
  count: number;
}

export function meanScores(pages: readonly PageScores[]): Record<ScoreName, MeanScore> {
  const result = {} as Record<ScoreName, MeanScore>;
  for (const name of SCORE_NAMES) {
    const values = pages.map((page) => page[name]).filter((v): v is number => v !== undefined);
    result[name] = { mean: mean(values), count: values.length };
  }
  return result;
}
