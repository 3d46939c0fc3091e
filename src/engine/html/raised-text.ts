/**
 * `<sup>` and `<sub>` holding only text that Unicode has superscript or subscript characters for, written in those
 * characters (raised-characters.ts): Markdown has no superscript, and the HTML path would run `10<sup>7</sup>` into
 * `107`. Used by the document converters (Word, OpenDocument text, EPUB books), whose superscripts are formatting
 * the author chose; an element holding markup (a note reference's link) is left alone.
 */
import { raisedCharacters } from '../raised-characters.js';
import { ELEMENT_NODE, type DomDocument } from './dom.js';

export function writeRaisedText(document: DomDocument): void {
  for (const element of [...document.querySelectorAll('sup, sub')]) {
    if ([...element.childNodes].some((node) => node.nodeType === ELEMENT_NODE)) continue;
    const written = raisedCharacters(element.textContent ?? '', element.tagName === 'SUP' ? 'super' : 'sub');
    if (written !== null) element.replaceWith(document.createTextNode(written));
  }
}
