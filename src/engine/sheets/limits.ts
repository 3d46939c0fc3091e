/**
 * Size limits that keep a hostile or pathological workbook (a sheet whose used range claims a million rows,
 * thousands of overlapping merges) from exhausting memory or time; a zip bomb meets the engine's zip limits
 * (bytes/zip.ts) first. Crossing one is a DOCUMENT_TOO_COMPLEX error naming what was too big, never a silent
 * truncation.
 */

/** Non-empty cells one sheet may hold, and the largest table (rows × columns after trimming) it may produce. */
export const MAX_SHEET_CELLS = 1_000_000;

/** Table cells (rows × columns after trimming) across all the sheets of one workbook. */
export const MAX_WORKBOOK_CELLS = 4_000_000;

/** Steps spent blanking the cells hidden under merged ranges, per sheet (guards against overlapping merges). */
export const MAX_MERGE_STEPS = 20_000_000;


/** The per-sheet and per-workbook limits, as one object a caller (or a test) can tighten. */
export interface SheetLimits {
  maxSheetCells: number;
  maxWorkbookCells: number;
  maxMergeSteps: number;
}

export const DEFAULT_SHEET_LIMITS: Readonly<SheetLimits> = {
  maxSheetCells: MAX_SHEET_CELLS,
  maxWorkbookCells: MAX_WORKBOOK_CELLS,
  maxMergeSteps: MAX_MERGE_STEPS,
};
