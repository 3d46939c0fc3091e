/**
 * What the reader does with RTF's control words beyond the syntax: the destinations whose content is never text
 * of the document, the words that stand for one character, and the `\info` fields kept as metadata.
 */

/**
 * Destinations skipped with everything in them. `\*` destinations the reader does not know are skipped too; these
 * are the ones written without `\*` (or commonly so) whose content would otherwise be read as text.
 */
export const SKIPPED_DESTINATIONS: ReadonlySet<string> = new Set([
  'aftncn', 'aftnsep', 'aftnsepc', 'annotation', 'atnauthor', 'atndate', 'atnicn', 'atnid', 'atnparent', 'atnref',
  'atntime', 'atrfend', 'atrfstart', 'background', 'bkmkend', 'bkmkstart', 'blipuid', 'colortbl', 'colorschememapping',
  'datafield', 'datastore', 'defchp', 'defpap', 'do', 'docvar', 'ebcend', 'ebcstart', 'falt', 'fchars', 'ffdeftext',
  'ffentrymcr', 'ffexitmcr', 'ffformat', 'ffhelptext', 'ffl', 'ffname', 'ffstattext', 'file', 'filetbl', 'fldtype',
  'fname', 'fontemb', 'fontfile', 'formfield', 'ftncn', 'ftnsep', 'ftnsepc', 'generator', 'gridtbl', 'keycode',
  'latentstyles', 'lchars', 'listoverridetable', 'listpicture', 'listtable', 'mmathPr', 'nesttableprops',
  'nonesttables', 'nonshppict', 'object', 'objalias', 'objclass', 'objdata', 'objname', 'objsect', 'objtime',
  'oldcprops', 'oldpprops', 'oldsprops', 'oldtprops', 'panose', 'passwordhash', 'pgdsctbl', 'pgptbl', 'pict',
  'pntxta', 'pntxtb', 'private', 'protusertbl', 'revtbl', 'result', 'rsidtbl', 'rxe', 'shppict', 'shprslt', 'sn', 'sp',
  'sv', 'tc', 'tcn', 'template', 'themedata', 'txe', 'userprops', 'wgrffmtfilter', 'windowcaption', 'writereservation',
  'writereservhash', 'xe', 'xform', 'xmlattrname', 'xmlattrvalue', 'xmlclose', 'xmlnstbl', 'xmlopen',
]);

/** Control words that stand for one character. */
export const SYMBOL_WORDS: ReadonlyMap<string, string> = new Map([
  ['tab', '\t'],
  ['emdash', '\u2014'],
  ['endash', '\u2013'],
  ['emspace', '\u2003'],
  ['enspace', '\u2002'],
  ['qmspace', '\u2005'],
  ['bullet', '\u2022'],
  ['lquote', '\u2018'],
  ['rquote', '\u2019'],
  ['ldblquote', '\u201c'],
  ['rdblquote', '\u201d'],
  ['zwj', '\u200d'],
  ['zwnj', '\u200c'],
  ['ltrmark', '\u200e'],
  ['rtlmark', '\u200f'],
]);

/** `\info` fields read as text, and the metadata key each becomes. */
export const INFO_TEXT_FIELDS: ReadonlyMap<string, string> = new Map([
  ['title', 'title'],
  ['subject', 'subject'],
  ['author', 'author'],
  ['keywords', 'keywords'],
  ['doccomm', 'description'],
  ['operator', 'lastModifiedBy'],
]);

/** `\info` dates (groups of `\yr \mo \dy \hr \min \sec`), and their metadata key. */
export const INFO_DATE_FIELDS: ReadonlyMap<string, string> = new Map([
  ['creatim', 'created'],
  ['revtim', 'modified'],
]);

/** Page header and footer destinations. */
export const FURNITURE_DESTINATIONS: ReadonlyMap<string, 'header' | 'footer'> = new Map([
  ['header', 'header'],
  ['headerl', 'header'],
  ['headerr', 'header'],
  ['headerf', 'header'],
  ['footer', 'footer'],
  ['footerl', 'footer'],
  ['footerr', 'footer'],
  ['footerf', 'footer'],
]);

/**
 * The URL of a HYPERLINK field instruction (`HYPERLINK "https://example.com/" \o "tip"`), or null for another field
 * or a link to a bookmark in the document (`HYPERLINK \l "anchor"`).
 */
export function hyperlinkTarget(instruction: string): string | null {
  const tokens = instruction.match(/"[^"]*"|\S+/g);
  if (tokens === null || tokens[0]?.toUpperCase() !== 'HYPERLINK') return null;
  for (let index = 1; index < tokens.length; index += 1) {
    const token = tokens[index] as string;
    if (token.startsWith('\\')) {
      // Switches with an argument: \l bookmark, \o tooltip, \t target frame, \m image map.
      if (/^\\[lotm]$/i.test(token)) index += 1;
      continue;
    }
    // In a field's quoted argument `\\` is one backslash.
    const url = token.replace(/^"|"$/g, '').replace(/\\\\/g, '\\').trim();
    // A URL has a scheme of two letters or more: `c:\\docs\\a.doc` (a drive letter) is a local file, not a link.
    return /^(?:[a-z][a-z0-9+.-]+:|www\.)/i.test(url) ? url : null;
  }
  return null;
}
