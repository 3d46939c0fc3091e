/** Parses the PDF named on the command line in mode ocr and prints the Markdown (a child process of ocr.test.ts). */
import { readFileSync } from 'node:fs';
import { parseOptionsSchema } from '../../../../src/contract/options.js';
import { convertPdf } from '../../../../src/engine/pdf/convert-pdf.js';
import { terminateOcrWorkers } from '../../../../src/engine/pdf/ocr/tesseract.js';

const file = process.argv[2]!;
const options = parseOptionsSchema.parse({ parsers: [{ type: 'pdf', mode: 'ocr' }] });
const model = await convertPdf({ bytes: new Uint8Array(readFileSync(file)), fileName: 'scan.pdf', extension: '.pdf', options });
await terminateOcrWorkers();
process.stdout.write(JSON.stringify(model.pages.flatMap((page) => page.blocks.map((block) => block.markdown))));
