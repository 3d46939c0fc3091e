/** Minimal OpenDocument text packages built in memory for the ODT tests. */
import { strToU8, zipSync, type Zippable } from 'fflate';

const NAMESPACES = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xmlns:xlink="http://www.w3.org/1999/xlink"',
  'xmlns:dc="http://purl.org/dc/elements/1.1/"',
  'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"',
].join(' ');

export interface OdtParts {
  /** The children of office:text. */
  body: string;
  /** The children of content.xml's office:automatic-styles. */
  automaticStyles?: string;
  /** The children of styles.xml's office:styles. */
  styles?: string;
  /** The children of styles.xml's office:master-styles. */
  masterStyles?: string;
  /** The children of office:meta. */
  meta?: string;
  /** manifest:file-entry elements (content.xml's entry is written with `contentEntry` inside). */
  contentEntry?: string;
  mimetype?: string;
  extra?: Record<string, Uint8Array>;
}

export function contentXml(body: string, automaticStyles = ''): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NAMESPACES} office:version="1.3">` +
    `<office:automatic-styles>${automaticStyles}</office:automatic-styles><office:body><office:text>${body}</office:text></office:body></office:document-content>`
  );
}

export function makeOdt(parts: OdtParts): Uint8Array {
  const files: Zippable = {
    mimetype: [strToU8(parts.mimetype ?? 'application/vnd.oasis.opendocument.text'), { level: 0 }],
    'content.xml': strToU8(contentXml(parts.body, parts.automaticStyles)),
    'styles.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${NAMESPACES} office:version="1.3">` +
        `<office:styles>${parts.styles ?? ''}</office:styles><office:master-styles>${parts.masterStyles ?? ''}</office:master-styles></office:document-styles>`,
    ),
    'meta.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><office:document-meta ${NAMESPACES} office:version="1.3"><office:meta>${parts.meta ?? ''}</office:meta></office:document-meta>`,
    ),
    'META-INF/manifest.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest ${NAMESPACES} manifest:version="1.3">` +
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>' +
        `<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${parts.contentEntry ?? ''}</manifest:file-entry>` +
        '</manifest:manifest>',
    ),
    ...(parts.extra ?? {}),
  };
  return zipSync(files);
}

/** A flat OpenDocument text (.fodt content): one XML document holding styles, metadata and body. */
export function makeFlatOdt(body: string, meta = ''): Uint8Array {
  return strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><office:document ${NAMESPACES} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">` +
      `<office:meta>${meta}</office:meta><office:body><office:text>${body}</office:text></office:body></office:document>`,
  );
}

export function p(text: string, style?: string): string {
  return `<text:p${style === undefined ? '' : ` text:style-name="${style}"`}>${text}</text:p>`;
}

export function h(text: string, level: number): string {
  return `<text:h text:outline-level="${level}">${text}</text:h>`;
}

export function textStyle(name: string, properties: string, family = 'text'): string {
  return `<style:style style:name="${name}" style:family="${family}"><style:text-properties ${properties}/></style:style>`;
}
