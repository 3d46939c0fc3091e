/** What OCR reads off a bitmap: words and lines, shared by the readers in this thread and the relay to the pool's. */

/** One recognised word, in bitmap pixels. */
export interface OcrWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** 0..1. */
  confidence: number;
}

/** One recognised line: its words left to right (right to left for RTL), its baseline and row height in pixels. */
export interface OcrLine {
  words: OcrWord[];
  /** Baseline y at `x0` and `x1` of the line (it may slope). */
  baseline: { x0: number; y0: number; x1: number; y1: number };
  rowHeight: number;
  rtl: boolean;
}
