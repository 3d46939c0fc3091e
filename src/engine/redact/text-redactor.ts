/**
 * One redaction's text redactor: finds the spans its mode and entities call for and replaces them in the style
 * asked for. Everything redacted (a block's Markdown, HTML text and attribute values, metadata, links, warnings) goes
 * through one of these, so every output hides the same things the same way.
 */
import type { Redaction } from '../../contract/options.js';
import { createPiiFinder } from './find-pii.js';
import { replaceSpans } from './replace-spans.js';

export type TextRedactor = (text: string) => string;

export async function createTextRedactor(redaction: Redaction): Promise<TextRedactor> {
  const find = await createPiiFinder(redaction);
  return (text) => (text === '' ? text : replaceSpans(text, find(text), redaction.replaceStyle));
}
