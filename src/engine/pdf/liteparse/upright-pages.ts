/**
 * Pages whose text runs sideways or upside down: a table set sideways on a portrait page, a page a viewer is told
 * to turn (`/Rotate`) over text that was upright. PDFium gives every item in the page's view, so on such a page
 * the lines run down or up it, or right to left, and the layout saw a column of one-word lines and no table.
 * When most of a page's characters run in one turned direction, the page is read in the frame its text reads in,
 * turned so that direction runs left to right; its blocks' places are turned back to the page's view after the
 * layout (the contract's boxes, OCR regions and pictures are all in that view).
 */
import { squareOf, turnBox, turnOf, viewSize, type Box, type Turn } from '../page-turns.js';
import { countCodePointsBesideSpaces } from '../white-space.js';
import type { NativePageInput, NativeTextItem } from './page-items.js';


/**
 * Words this share of the em apart or more are words apart, whatever the item's text says. PDFium gives the
 * glyphs of text turned a quarter as words of their own and spaces its text where they do not touch in the view
 * (`dr y season.Photo`); a word space is wider (0.19–0.20 em in a book's justified lines), glyphs kerned apart
 * closer (0.04 em at most there).
 */
const WORD_SPACE_EM = 0.15;
/**
 * Text turned a quarter: words its text sets a space between are words apart from this share of the em (an `f`
 * reaching over the space before or after it: `damage for` 0.05 em apart, `of the` 0.09); closer, they are one
 * word, whatever space PDFium wrote (`dr y`, `brush land`, `N entón`: −0.01 to 0.04 em). Upside down, PDFium's
 * text spaces its words as it spaces level text, and a space it writes stands however close the words come.
 */
const SPACED_EM = 0.045;

function degrees(item: NativeTextItem): number {
  return (((item.rotation ?? 0) % 360) + 360) % 360;
}

/** Which way the page's text runs: the turned direction most of its characters take, else 0. */
export function pageTurn(items: readonly NativeTextItem[]): Turn {
  // Most pages have no item off level: one pass that reads only the angles.
  if (!items.some((item) => squareOf(degrees(item)) !== 0)) return 0;
  const chars = [0, 0, 0, 0];
  let all = 0;
  for (const item of items) {
    const n = countCodePointsBesideSpaces(item.text);
    all += n;
    const square = squareOf(degrees(item));
    if (square >= 0) chars[square / 90]! += n;
  }
  return turnOf(chars, all);
}

/**
 * An item in the turned frame. One that now runs left to right has its words in reading order, joined where they
 * are one word, and its text written from them: PDFium's words and text follow the page's view (`95,36` for
 * `5,369` upside down, a word per glyph or two turned a quarter).
 */
function turnItem(item: NativeTextItem, turn: Turn, width: number, height: number): NativeTextItem {
  const rotation = (((degrees(item) - turn) % 360) + 360) % 360;
  const turned = { ...turnBox(item, turn, width, height), rotation };
  const words = item.words?.map((word) => turnBox(word, turn, width, height));
  if (squareOf(rotation) !== 0 || !words || words.length === 0) return words ? { ...turned, words } : turned;
  const size = item.fontHeight && item.fontHeight > 0 ? item.fontHeight : turned.height;
  const spacedFrom = turn === 180 ? -Infinity : SPACED_EM;
  const joined: (Box & { text: string })[] = [];
  let previous = '';
  for (const word of words.sort((a, b) => a.x - b.x)) {
    const text = word.text.trim();
    if (!text) continue;
    // PDFium's text runs in the view's order, in pieces (`nd that … of the I fou when moved enselyimm`): two words
    // written one after the other in it, with a space between or none, say how they meet.
    const spaced = previous !== '' && !item.text.includes(previous + text) && (item.text.includes(`${previous} ${text}`) || undefined);
    previous = text;
    const last = joined[joined.length - 1];
    const gap = last ? (word.x - (last.x + last.width)) / size : Infinity;
    if (last && gap < WORD_SPACE_EM && !(spaced === true && gap >= spacedFrom)) {
      const y0 = Math.min(last.y, word.y);
      last.text += text;
      last.width = Math.max(last.x + last.width, word.x + word.width) - last.x;
      last.height = Math.max(last.y + last.height, word.y + word.height) - y0;
      last.y = y0;
    } else joined.push({ text, x: word.x, y: word.y, width: word.width, height: word.height });
  }
  if (joined.length === 0) return { ...turned, words };
  const text = joined.map((word) => word.text).join(' ');
  // The glyphs' codes follow the item's own text: kept where the words read as it does.
  return text === item.text.trim() ? { ...turned, words: joined } : { ...turned, text, words: joined, charCodes: undefined };
}

/**
 * Items in the order LiteParse gives an upright page's: line by line down the page, left to right along each.
 * Its order on a turned page follows the view (from the last line up, or each line right to left), and the layout
 * reads the order a page draws its items in as a signal. Items whose middles lie within half the smaller one's
 * height are on one line.
 */
function inReadingOrder(items: NativeTextItem[]): NativeTextItem[] {
  const middle = (item: NativeTextItem) => item.y + item.height / 2;
  const byMiddle = items.sort((a, b) => middle(a) - middle(b));
  const ordered: NativeTextItem[] = [];
  let line: NativeTextItem[] = [];
  const flush = () => {
    for (const item of line.sort((a, b) => a.x - b.x)) ordered.push(item);
    line = [];
  };
  for (const item of byMiddle) {
    const first = line[0];
    if (first && middle(item) - middle(first) > Math.min(item.height, first.height) / 2) flush();
    line.push(item);
  }
  flush();
  return ordered;
}

/** The page's drawn lines and shapes, form fields and annotations in the turned frame. */
function turnedDrawing(page: NativePageInput, turn: Turn): Partial<NativePageInput> {
  const { width, height } = page;
  const point = (x: number, y: number): [number, number] => {
    const box = turnBox({ x, y, width: 0, height: 0 }, turn, width, height);
    return [box.x, box.y];
  };
  const drawing: Partial<NativePageInput> = {};
  if (page.vectorGraphics) {
    drawing.vectorGraphics = {
      lines: page.vectorGraphics.lines.map((line) => {
        const [x1, y1] = point(line.x1, line.y1);
        const [x2, y2] = point(line.x2, line.y2);
        return { ...line, x1, y1, x2, y2 };
      }),
      shapes: page.vectorGraphics.shapes.map((shape) => ({ ...shape, bbox: turnBox(shape.bbox, turn, width, height) })),
    };
  }
  if (page.formFields) drawing.formFields = page.formFields.map((field) => (field.rect ? { ...field, rect: turnBox(field.rect, turn, width, height) } : field));
  if (page.annotations) drawing.annotations = page.annotations.map((note) => (note.rect ? { ...note, rect: turnBox(note.rect, turn, width, height) } : note));
  return drawing;
}

/**
 * The page in the frame its text reads in, with the turn that took it there; the page itself when its text runs
 * left to right. The places of LiteParse's figure blocks are turned with it.
 */
export function uprightPage<P extends NativePageInput & { blocks?: readonly { kind: string; bbox?: Box | undefined }[] | undefined }>(page: P): P & { turn?: Turn } {
  const turn = pageTurn(page.textItems);
  if (turn === 0) return page;
  const { width, height } = page;
  const turned: P & { turn?: Turn } = {
    ...page,
    ...turnedDrawing(page, turn),
    ...viewSize(turn, width, height),
    textItems: inReadingOrder(page.textItems.map((item) => turnItem(item, turn, width, height))),
    turn,
  };
  // LiteParse's tables are read across its view, so their rows are not the text's: the layout finds the tables.
  if (page.blocks) turned.blocks = page.blocks.filter((block) => block.kind !== 'table').map((block) => (block.bbox ? { ...block, bbox: turnBox(block.bbox, turn, width, height) } : block));
  return turned;
}
