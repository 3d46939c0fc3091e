// One document to the contract's `data`, on the embedded local engine (no key, no network):
//   node examples/library/parse-file.mjs examples/report.pdf
import { parseFile } from 'docmill';

const path = process.argv[2] ?? new URL('../report.pdf', import.meta.url).pathname;
const data = await parseFile(path, { parseOptions: { parsers: [{ type: 'pdf', pages: true }] } });
console.log(`${data.metadata?.numPages ?? 1} page(s), ${data.markdown?.length ?? 0} characters of Markdown`);
console.log(data.markdown?.split('\n')[0]);
