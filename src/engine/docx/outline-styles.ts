/**
 * Headings by outline level. Word makes a paragraph a heading (in the navigation pane, the table of contents and
 * its numbering) by its outline level (`w:outlineLvl`, 0 for level 1), which the built-in "heading 1" to "heading 9"
 * styles carry and which custom styles take over by being based on them ("Chapter Title" based on "Heading 1")
 * or by stating their own. mammoth knows headings by the built-in styles' names only, so a template's own heading
 * styles read as plain paragraphs. Each paragraph style with an outline level (its own, else the nearest in its
 * `w:basedOn` chain) is mapped to the heading of that level (levels past 6 to `h6`); the built-in heading, title
 * and subtitle styles keep their own mapping.
 */
import { inherited, type StyleSheet } from './style-sheet.js';

/** Styles mammoth or the converter's style map already read as headings. */
const ALREADY_HEADINGS = /^(?:heading [1-9]|title|subtitle)$/i;

/** Style map lines (`p[style-name='Chapter Title'] => h1:fresh`) for outline-levelled styles (`outlineHeadingStyles`). */
export function outlineStyleMap(headingStyles: ReadonlyMap<string, number>): string[] {
  return [...headingStyles].map(([name, level]) => `p[style-name='${name}'] => h${Math.min(level + 1, 6)}:fresh`);
}

/**
 * The paragraph styles of a package's styles that make headings by their outline level, by name, with their level
 * (0-based), the built-in heading, title and subtitle styles left out.
 */
export function outlineHeadingStyles(sheet: StyleSheet | undefined): Map<string, number> {
  const headings = new Map<string, number>();
  if (sheet === undefined) return headings;
  for (const [id, entry] of sheet) {
    // A name the style map syntax cannot quote is left to mammoth's defaults.
    if (entry.type !== 'paragraph' || ALREADY_HEADINGS.test(entry.name) || /['\\]/.test(entry.name)) continue;
    const level = inherited(id, sheet, (style) => style.outlineLevel);
    // Level 9 is Word's "body text": no heading.
    if (level === undefined || level < 0 || level > 8) continue;
    headings.set(entry.name, level);
  }
  return headings;
}
