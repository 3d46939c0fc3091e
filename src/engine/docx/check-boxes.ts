/**
 * Check boxes in a Word document (content controls of the check-box kind, and legacy FORMCHECKBOX fields) are
 * written by mammoth as `<input type="checkbox">`, which the HTML path, reading a page's content, leaves out: a
 * form's ticked answers and a checklist's done column would come out blank. Each becomes the character it stands
 * for, ☒ when ticked and ☐ when not, the marks the PDF path gives a form's check boxes.
 */
import type { DomDocument } from '../html/dom.js';

export const CHECKED_BOX = '☒';
export const UNCHECKED_BOX = '☐';

export function writeCheckBoxes(document: DomDocument): void {
  for (const box of [...document.querySelectorAll('input[type="checkbox"]')]) {
    box.replaceWith(document.createTextNode(box.hasAttribute('checked') ? CHECKED_BOX : UNCHECKED_BOX));
  }
}
