/** The minified build of pdfjs's display layer: the same module as `pdf.mjs`, which carries its types. */
declare module 'pdfjs-dist/legacy/build/pdf.min.mjs' {
  export * from 'pdfjs-dist/legacy/build/pdf.mjs';
}
