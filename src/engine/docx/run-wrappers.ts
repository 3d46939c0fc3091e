/**
 * Text that Word keeps inside elements mammoth does not read, handed to mammoth in a form it does read. mammoth
 * drops an element it does not know with everything in it, so without this the words are lost:
 *
 * - `w:fldSimple`, a field written in one element (Word and LibreOffice write caption numbers `SEQ`, `PAGE`,
 *   `DATE`, mail-merge fields and hyperlinks so): its cached result is the text the reader sees. It becomes the same
 *   field written with `w:fldChar`/`w:instrText`, which mammoth reads (a HYPERLINK field becomes a link).
 * - `w:dir` and `w:bdo`, runs set right to left or left to right by an embedding or an override: their runs are
 *   kept, the direction is the text's own.
 * - `w:ruby`, phonetic guides over East Asian text: the base text is kept, the small reading above it is not.
 * - `w:cr`, a carriage return inside a run: a line break, as `w:br`.
 * - `w:ptab`, a tab set at a fixed place (Word writes it between a header's or a line's left and right parts):
 *   a tab, as `w:tab`, so that the words on either side stay apart.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { wordPrefix } from './word-prefix.js';

/** The document XML with those elements rewritten, and how many were. */
export function exposeWrappedRuns(documentXml: string): { xml: string; count: number } {
  const word = wordPrefix(documentXml);
  if (word === null) return { xml: documentXml, count: 0 };
  const w = escapeRegExp(word);
  if (!new RegExp(`<${w}:(?:fldSimple|dir|bdo|ruby|cr|ptab)[\\s/>]`).test(documentXml)) return { xml: documentXml, count: 0 };
  let count = 0;
  const counted = (text: string) => {
    count += 1;
    return text;
  };
  const fieldChar = (type: string) => `<${word}:r><${word}:fldChar ${word}:fldCharType="${type}"/></${word}:r>`;

  let xml = documentXml.replace(new RegExp(`<${w}:fldSimple\\b([^>]*?)(/?)>`, 'g'), (_tag, attributes: string, selfClosing: string) => {
    // A field with no cached result shows nothing; its closing tag is removed below with the others.
    if (selfClosing) return counted('');
    const instruction = new RegExp(`\\b${w}:instr=(?:"([^"]*)"|'([^']*)')`).exec(attributes);
    const code = instruction?.[1] ?? instruction?.[2] ?? '';
    return counted(
      fieldChar('begin') +
        `<${word}:r><${word}:instrText xml:space="preserve">${code}</${word}:instrText></${word}:r>` +
        fieldChar('separate'),
    );
  });
  xml = xml.replace(new RegExp(`</${w}:fldSimple>`, 'g'), fieldChar('end'));

  xml = xml.replace(new RegExp(`</?${w}:(?:dir|bdo)\\b[^>]*>`, 'g'), (tag) => (tag.startsWith('</') ? '' : counted('')));

  xml = xml.replace(new RegExp(`<${w}:ruby\\b[^>]*>([\\s\\S]*?)</${w}:ruby>`, 'g'), (_ruby, inner: string) => {
    const base = new RegExp(`<${w}:rubyBase\\b[^>]*>([\\s\\S]*?)</${w}:rubyBase>`).exec(inner)?.[1] ?? '';
    // The ruby stands inside a run: the base's runs give their content to it, their own properties left out.
    const content = base
      .replace(new RegExp(`<${w}:rPr\\b[^>]*>[\\s\\S]*?</${w}:rPr>|<${w}:rPr\\b[^>]*/>`, 'g'), '')
      .replace(new RegExp(`</?${w}:r\\b[^>]*>`, 'g'), '');
    return counted(content);
  });

  xml = xml.replace(new RegExp(`<${w}:cr\\b[^>]*/>`, 'g'), () => counted(`<${word}:br/>`));
  xml = xml.replace(new RegExp(`<${w}:ptab\\b[^>]*/>`, 'g'), () => counted(`<${word}:tab/>`));
  return { xml, count };
}
