/** The small XML tree the slide (and spreadsheet chart) readers share. */
import { describe, expect, it } from 'vitest';
import { attr, child, MAX_XML_DEPTH, parseXml, textContent } from '../../../src/engine/slides/xml.js';

describe('parseXml', () => {
  it('decodes the XML entities and numeric references in text and attributes', () => {
    const root = parseXml('<?xml version="1.0"?><a:p xmlns:a="x" a:name="R&amp;D &quot;1&quot;"><a:t>x &lt; y &#x2019;s &#8364;5 &amp;amp;</a:t></a:p>');
    expect(root?.name).toBe('p');
    expect(attr(root, 'a:name')).toBe('R&D "1"');
    expect(attr(root, 'name')).toBe('R&D "1"');
    expect(textContent(child(root, 't'))).toBe('x < y ’s €5 &amp;');
  });

  it('never expands entities a DOCTYPE declares', () => {
    const root = parseXml('<!DOCTYPE a [<!ENTITY x "boom"><!ENTITY y "&x;&x;&x;">]><a>&y;</a>');
    expect(textContent(root)).not.toContain('boom');
  });

  it('refuses a document nested deeper than the cap, and reads one just under it', () => {
    const nested = (depth: number) => '<a>'.repeat(depth) + 'deep' + '</a>'.repeat(depth);
    expect(parseXml(nested(MAX_XML_DEPTH + 50))).toBeNull();
    expect(textContent(parseXml(nested(MAX_XML_DEPTH - 1)))).toBe('deep');
  });
});
