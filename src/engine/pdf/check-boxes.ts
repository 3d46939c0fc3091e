/**
 * A form's check boxes drawn as glyphs (`☐ A friend or relative`, `☑ Yes`, `☒ No`): each option set on a line of its
 * own is a line of its own, its box kept (it says whether the option is ticked), not a wrapped line of the option
 * above; and a question answered by boxes at its end (`… of the Securities Act. Yes ☐ No ☑`, a filing's cover page)
 * ends its item, the next question not run into it. Pure.
 */

/** A ballot box, empty, ticked or crossed, and the boxes fonts draw for them, before an option's words. */
const CHECK_BOX_START = /^[☐☑☒❑❒]\s*\S/u;

export function opensWithCheckBox(text: string): boolean {
  return CHECK_BOX_START.test(text);
}

/** A question's answer: a box, ticked or not, after its option's word (`Yes ☐`, `No ☑`), ending the line. */
const CHECK_BOX_END = /\S\s*[☐☑☒❑❒]$/u;

export function endsWithCheckBox(text: string): boolean {
  return CHECK_BOX_END.test(text);
}
