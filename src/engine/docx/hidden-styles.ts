/**
 * The styles that hide their text: a character style (`w:rStyle`) or paragraph style (`w:pStyle`) whose run
 * properties say `w:vanish`, itself or through the styles it is based on. Templates hide notes to the author and
 * answer keys this way as often as by formatting a run hidden; Word neither shows nor prints such text.
 *
 * A style's value is the nearest in its `w:basedOn` chain that sets `w:vanish` (switched on or off), as Word
 * resolves a style's properties.
 */
import { inherited, type StyleSheet } from './style-sheet.js';

export interface HiddenStyles {
  /** Character style ids whose text is hidden. */
  character: ReadonlySet<string>;
  /** Paragraph style ids whose paragraphs' text is hidden. */
  paragraph: ReadonlySet<string>;
}

export const NO_HIDDEN_STYLES: HiddenStyles = { character: new Set(), paragraph: new Set() };

/** The hidden styles of a package's styles (none read, or hiding nothing: none). */
export function readHiddenStyles(sheet: StyleSheet | undefined): HiddenStyles {
  if (sheet === undefined) return NO_HIDDEN_STYLES;
  const character = new Set<string>();
  const paragraph = new Set<string>();
  for (const [id, entry] of sheet) {
    if (!(inherited(id, sheet, (style) => style.vanish) ?? false)) continue;
    if (entry.type === 'character') character.add(id);
    else if (entry.type === 'paragraph') paragraph.add(id);
  }
  return character.size === 0 && paragraph.size === 0 ? NO_HIDDEN_STYLES : { character, paragraph };
}
