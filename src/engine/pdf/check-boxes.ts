/**
 * A form's check boxes drawn as glyphs (`☐ A friend or relative`, `☑ Yes`, `☒ No`): each option set on a line of its
 * own is a line of its own, its box kept (it says whether the option is ticked), not a wrapped line of the option
 * above. Pure.
 */

/** A ballot box, empty, ticked or crossed, and the boxes fonts draw for them, before an option's words. */
const CHECK_BOX_START = /^[☐☑☒❑❒]\s*\S/u;

export function opensWithCheckBox(text: string): boolean {
  return CHECK_BOX_START.test(text);
}
