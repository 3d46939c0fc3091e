// Text content through pdfjs-dist exactly as published (legacy build, its own unpatched worker module), in a
// thread of its own: nothing of docmill's patched worker is installed here. The test beside this file compares
// it with what the patched worker gives. Message in: { id, bytes }; out: { id, pages } or { id, error }.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { parentPort } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const root = dirname(require.resolve('pdfjs-dist/package.json'));
const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');

async function textContent(bytes) {
  const doc = await pdfjs.getDocument({
    data: bytes,
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    enableXfa: false,
    disableRange: true,
    disableStream: true,
    disableAutoFetch: true,
    maxImageSize: 0,
    standardFontDataUrl: `${root}/standard_fonts/`,
    cMapUrl: `${root}/cmaps/`,
    cMapPacked: true,
    wasmUrl: `${root}/wasm/`,
    iccUrl: `${root}/iccs/`,
    verbosity: 0,
  }).promise;
  try {
    const pages = [];
    for (let number = 1; number <= doc.numPages; number++) {
      const page = await doc.getPage(number);
      const content = await page.getTextContent({ includeMarkedContent: false });
      pages.push({ items: content.items, styles: content.styles });
      page.cleanup();
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

parentPort.on('message', ({ id, bytes }) => {
  textContent(bytes).then(
    (pages) => parentPort.postMessage({ id, pages }),
    (error) => parentPort.postMessage({ id, error: String(error?.message ?? error) }),
  );
});
