/**
 * What the PPTX and ODP readers extract from a slide, before it becomes blocks: the same shape for both formats,
 * so reading order, lists, tables and the notes/comments sections are written once (render-slide.ts).
 */

/** A rectangle in the slide's own units (EMU for PPTX, centimetres for ODP); the slide size uses the same unit. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TextRun {
  text: string;
  bold?: boolean;
  /** Type size in points, where the run sets its own. */
  size?: number;
  italic?: boolean;
  /** An external link target. */
  href?: string;
}

export interface ListMarker {
  ordered: boolean;
  /** 0-based nesting level. */
  level: number;
  /** First number of an ordered list (numbering restarts where it says so). */
  startAt?: number;
}

export interface Paragraph {
  runs: TextRun[];
  list: ListMarker | null;
}

export type FurnitureKind = 'page_footer' | 'page_number' | 'page_header';

/** What every item carries: the groups it stands in, outermost first (ids unique on the slide), for reading order. */
interface Grouped {
  group?: readonly number[];
}

export type SlideItem = Grouped &
  (
  | {
      kind: 'text';
      paragraphs: Paragraph[];
      rect: Rect | null;
      /** Footers, dates, slide numbers and master decoration: kept in blocks, out of the main Markdown. */
      furniture?: FurnitureKind;
    }
  | { kind: 'table'; rows: string[][]; rect: Rect | null }
  | {
      kind: 'figure';
      description: string;
      rect: Rect | null;
      /** The picture as a data: URI, when the result keeps pictures (`removeBase64Images` false) and it could be read. */
      image?: string | undefined;
    }
  | { kind: 'chart'; title: string; rows: string[][]; rect: Rect | null }
  );

/** Marks the items from `from` on as standing in group `id` (inside the groups they already stand in). */
export function markGroup(items: SlideItem[], from: number, id: number): void {
  for (const item of items.slice(from)) item.group = [id, ...(item.group ?? [])];
}

export interface SlideComment {
  author: string | null;
  text: string;
  replies: SlideComment[];
}

export interface Slide {
  /** 1-based, in presentation order. */
  number: number;
  hidden: boolean;
  /** Slide size, in the unit of the rectangles; null when unknown. */
  width: number | null;
  height: number | null;
  title: { text: string; rect: Rect | null } | null;
  /** In document order; render-slide.ts puts them in reading order. */
  items: SlideItem[];
  notes: Paragraph[];
  comments: SlideComment[];
}

/** The plain text of a paragraph's runs. */
export function paragraphText(paragraph: Paragraph): string {
  return paragraph.runs.map((run) => run.text).join('');
}
