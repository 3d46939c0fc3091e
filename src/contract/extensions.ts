/**
 * The file types /v2/parse accepts (spec: "Parse request", part `file`) and the content type sent for each.
 * The client labels the multipart `file` part with this type; the server dispatches on the extension.
 */
export const CONTENT_TYPE_BY_EXTENSION = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'application/xhtml+xml',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.doc': 'application/msword',
  '.docm': 'application/vnd.ms-word.document.macroEnabled.12',
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
  '.odp': 'application/vnd.oasis.opendocument.presentation',
  '.rtf': 'application/rtf',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.xls': 'application/vnd.ms-excel',
  '.xlsm': 'application/vnd.ms-excel.sheet.macroEnabled.12',
  '.xlsb': 'application/vnd.ms-excel.sheet.binary.macroEnabled.12',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.pptm': 'application/vnd.ms-powerpoint.presentation.macroEnabled.12',
  '.epub': 'application/epub+zip',
  '.csv': 'text/csv',
} as const satisfies Record<string, string>;

export type SupportedExtension = keyof typeof CONTENT_TYPE_BY_EXTENSION;

export const SUPPORTED_EXTENSIONS = Object.keys(CONTENT_TYPE_BY_EXTENSION) as SupportedExtension[];

/** The extension of a file name, lower-cased, with its dot ('' when there is none). */
export function extensionOf(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
}

export function isSupportedExtension(extension: string): extension is SupportedExtension {
  return Object.hasOwn(CONTENT_TYPE_BY_EXTENSION, extension);
}

/** The content type for a supported file name, or undefined when its extension is not supported. */
export function contentTypeFor(fileName: string): string | undefined {
  const extension = extensionOf(fileName);
  return isSupportedExtension(extension) ? CONTENT_TYPE_BY_EXTENSION[extension] : undefined;
}
