/** Minimal EPUB books built in memory for the EPUB tests. */
import { strToU8, zipSync, type Zippable } from 'fflate';

export interface Chapter {
  id: string;
  /** Path relative to the OPF folder (OEBPS/). */
  href: string;
  /** The body's inner XHTML. */
  body: string;
  title?: string;
  properties?: string;
  mediaType?: string;
  /** false writes linear="no" on the itemref; null leaves the chapter out of the spine. */
  linear?: boolean | null;
}

export interface BookParts {
  chapters: Chapter[];
  /** Spine order by id (defaults to the chapters' order). */
  spine?: string[];
  /** The children of the OPF metadata element. */
  metadata?: string;
  version?: '2.0' | '3.0';
  /** Extra zip entries (META-INF/encryption.xml...). */
  extra?: Record<string, string | Uint8Array>;
  /** Leave the spine element out. */
  noSpine?: boolean;
  /** `<spine toc="...">` */
  toc?: string;
  /** Style sheets by path relative to OEBPS/, listed in the manifest as text/css. */
  stylesheets?: Record<string, string>;
}

export function xhtml(body: string, title = 'Chapter'): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">' +
    `<head><title>${title}</title></head><body>${body}</body></html>`
  );
}

export function makeEpub(parts: BookParts): Uint8Array {
  const { chapters } = parts;
  const manifest = chapters
    .map(
      (chapter) =>
        `<item id="${chapter.id}" href="${chapter.href}" media-type="${chapter.mediaType ?? 'application/xhtml+xml'}"${chapter.properties ? ` properties="${chapter.properties}"` : ''}/>`,
    )
    .join('') +
    Object.keys(parts.stylesheets ?? {})
      .map((href, index) => `<item id="css${index}" href="${href}" media-type="text/css"/>`)
      .join('');
  const order = parts.spine ?? chapters.filter((chapter) => chapter.linear !== null).map((chapter) => chapter.id);
  const spine = order
    .map((id) => {
      const chapter = chapters.find((candidate) => candidate.id === id);
      return `<itemref idref="${id}"${chapter?.linear === false ? ' linear="no"' : ''}/>`;
    })
    .join('');
  const opf =
    `<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="${parts.version ?? '3.0'}" unique-identifier="id">` +
    `<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">${parts.metadata ?? '<dc:title>Book</dc:title>'}</metadata>` +
    `<manifest>${manifest}</manifest>${parts.noSpine ? '' : `<spine${parts.toc ? ` toc="${parts.toc}"` : ''}>${spine}</spine>`}</package>`;
  const files: Zippable = {
    mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': strToU8(
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">' +
        '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    ),
    'OEBPS/content.opf': strToU8(opf),
  };
  for (const chapter of chapters) {
    files[`OEBPS/${decodeURIComponent(chapter.href)}`] = strToU8(chapter.mediaType?.includes('ncx') ? chapter.body : xhtml(chapter.body, chapter.title));
  }
  for (const [href, css] of Object.entries(parts.stylesheets ?? {})) files[`OEBPS/${href}`] = strToU8(css);
  for (const [name, content] of Object.entries(parts.extra ?? {})) files[name] = typeof content === 'string' ? strToU8(content) : content;
  return zipSync(files);
}
