import { escapeRegExp } from '../../common/escape-regexp.js';

/** WordprocessingML's namespace in Transitional and in Strict OOXML. */
const WORD_NAMESPACES = ['http://schemas.openxmlformats.org/wordprocessingml/2006/main', 'http://purl.oclc.org/ooxml/wordprocessingml/main'];

/** The prefix a part's XML binds to WordprocessingML (`w` in practice), or null when it declares none. */
export function wordPrefix(xml: string): string | null {
  for (const namespace of WORD_NAMESPACES) {
    const match = new RegExp(`xmlns:(\\w+)="${escapeRegExp(namespace)}"`).exec(xml);
    if (match?.[1] !== undefined) return match[1];
  }
  return null;
}
