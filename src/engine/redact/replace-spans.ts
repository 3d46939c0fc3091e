/** The contract's replace styles: `tag` (<EMAIL>), `mask` (one `*` per character), `remove` (the span deleted). */
import type { Redaction } from '../../contract/options.js';
import type { PiiSpan } from './entities.js';

export function replaceSpans(text: string, spans: readonly PiiSpan[], style: Redaction['replaceStyle']): string {
  let result = '';
  let cursor = 0;
  for (const span of spans) {
    result += text.slice(cursor, span.start) + replacement(text.slice(span.start, span.end), span, style);
    cursor = span.end;
  }
  return result + text.slice(cursor);
}

function replacement(original: string, span: PiiSpan, style: Redaction['replaceStyle']): string {
  if (style === 'tag') return `<${span.entity}>`;
  if (style === 'remove') return '';
  // Line breaks stay, so a masked key block does not pull the lines around it together.
  return Array.from(original, (char) => (char === '\n' || char === '\r' ? char : '*')).join('');
}
