/**
 * Slide decks as LibreOffice Impress prints them, generated: 16:9 landscape pages (794 × 446 pt), a title in large
 * type, bullets indented by level in type that shrinks a step a level, and each bullet a glyph of a symbol font
 * whose ToUnicode maps it to a private-use code point, as the printed templates' bullets are (StarSymbol's "●" is
 * written as U+F095); and a slide framed by a template's panel.
 */
import {
  PDFDocument,
  PDFHexString,
  PDFName,
  StandardFonts,
  beginText,
  endText,
  moveText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFontAndSize,
  showText,
  type PDFFont,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';

export const SLIDE_WIDTH = 794;
export const SLIDE_HEIGHT = 446;

/** The private-use code point a symbol font's bullet is read as. */
export const SYMBOL_BULLET = 0xf095;

export interface SlideBullet {
  level: number;
  text: string;
}

export interface Slide {
  title: string;
  bullets?: SlideBullet[];
  /**
   * How a bullet is set: `symbol`, a symbol font's glyph apart from its text (the default); `glued`, a "•" set
   * against its first word, as a bullet without a hanging indent prints.
   */
  bulletStyle?: 'symbol' | 'glued';
  /** Extra drawing on the slide, in pdf-lib's bottom-up coordinates. */
  draw?: (page: PDFPage, font: PDFFont) => void;
}

/** The code of the bullet in the Symbol font's built-in encoding. */
const BULLET_CODE = 'B7';

/** The ToUnicode CMap of the bullet: its code is `unicode`. */
function toUnicodeCMap(unicode: number): string {
  const hex = unicode.toString(16).toUpperCase().padStart(4, '0');
  return [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Bullet-UCS def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    `1 beginbfchar <${BULLET_CODE}> <${hex}> endbfchar`,
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
}

/** Adds the standard Symbol font, its bullet read as `unicode`. */
function addSymbolFont(pdf: PDFDocument, unicode: number): PDFRef {
  const context = pdf.context;
  return context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'TrueType',
      BaseFont: 'OpenSymbol',
      FirstChar: 0xb7,
      LastChar: 0xb7,
      Widths: [600],
      FontDescriptor: context.register(
        context.obj({ Type: 'FontDescriptor', FontName: 'OpenSymbol', Flags: 4, FontBBox: [0, -200, 1000, 800], ItalicAngle: 0, Ascent: 800, Descent: -200, CapHeight: 700, StemV: 80 }),
      ),
      ToUnicode: context.register(context.stream(toUnicodeCMap(unicode))),
    }),
  );
}

const SYMBOL_FONT = 'SymbolBullet';

/** Draws one symbol-font bullet at (x, y), `size` points, on the page. */
function drawSymbolBullet(page: PDFPage, font: PDFRef, x: number, y: number, size: number): void {
  page.node.setFontDictionary(PDFName.of(SYMBOL_FONT), font);
  page.pushOperators(
    pushGraphicsState(),
    beginText(),
    setFontAndSize(SYMBOL_FONT, size),
    moveText(x, y),
    showText(PDFHexString.of(BULLET_CODE)),
    endText(),
    popGraphicsState(),
  );
}

/** Where a deck's bullet levels stand and how large they are set. */
export interface BulletLevels {
  /** How far right of its parent's bullet a level's bullet stands, pt (30 by default). */
  step?: number;
  /** Type size of the first level, pt (28 by default). */
  firstSize?: number;
  /** How much smaller each level's type is than its parent's, pt (4 by default). */
  sizeStep?: number;
}

/**
 * A deck of slides, each with its title at the top and its bullets below. LibreOffice's templates step their
 * levels in by less than their type's em: `{ step: 18, firstSize: 24 }` prints as they do.
 */
export async function slideDeck(slides: readonly Slide[], levels: BulletLevels = {}): Promise<Uint8Array> {
  const { step = 30, firstSize = 28, sizeStep = 4 } = levels;
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const symbol = addSymbolFont(pdf, SYMBOL_BULLET);
  for (const slide of slides) {
    const page = pdf.addPage([SLIDE_WIDTH, SLIDE_HEIGHT]);
    page.drawText(slide.title, { x: 57, y: SLIDE_HEIGHT - 75, size: 40, font });
    let y = SLIDE_HEIGHT - 140;
    for (const bullet of slide.bullets ?? []) {
      const size = firstSize - sizeStep * bullet.level;
      const x = 57 + step * bullet.level;
      if (slide.bulletStyle === 'glued') {
        page.drawText(`•${bullet.text}`, { x, y, size, font });
      } else {
        drawSymbolBullet(page, symbol, x, y + 0.1 * size, 0.45 * size);
        page.drawText(bullet.text, { x: x + 0.9 * size, y, size, font });
      }
      y -= 1.5 * size;
    }
    slide.draw?.(page, font);
  }
  return pdf.save();
}

/**
 * A slide as a template with a panel prints it: a grey page, a white panel over most of it, a title bar across the
 * panel's top, the title in 30 pt on it and paragraphs (each a list of lines) in 24 pt under it, and a footer.
 */
export async function panelSlide(title: string, paragraphs: readonly (readonly string[])[], footer: readonly string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([SLIDE_WIDTH, SLIDE_HEIGHT]);
  const top = (y: number) => SLIDE_HEIGHT - y;
  page.drawRectangle({ x: 0, y: 0, width: SLIDE_WIDTH, height: SLIDE_HEIGHT, color: rgb(0.4, 0.4, 0.4) });
  page.drawRectangle({ x: 21, y: top(397), width: 751, height: 383, color: rgb(1, 1, 1) });
  page.drawRectangle({ x: 7, y: top(85), width: 716, height: 50, color: rgb(0.7, 0.9, 0.5), borderColor: rgb(0.5, 0.7, 0.3), borderWidth: 1 });
  page.drawText(title, { x: 45, y: top(70), size: 30, font });
  let y = 130;
  for (const lines of paragraphs) {
    for (const line of lines) {
      page.drawText(line, { x: 45, y: top(y), size: 24, font });
      y += 29;
    }
    y += 12;
  }
  footer.forEach((text, i) => page.drawText(text, { x: 30 + 270 * i, y: top(420), size: 10, font }));
  return pdf.save();
}
