import { readFileSync } from 'node:fs';
import { LiteParse } from '@llamaindex/liteparse';
const p = new LiteParse({ outputFormat: 'json', ocrEnabled: false, quiet: true, extractTextMetadata: true, emitWordBoxes: true });
const r = await p.parse(readFileSync(process.argv[2]));
const page = (r.json?.pages ?? r.pages)[Number(process.argv[3] ?? 0)];
for (const it of page.textItems) for (const w of it.words ?? [it]) console.log(w.text.padEnd(14), 'x', w.x.toFixed(1), '-', (w.x + w.width).toFixed(1), 'y', w.y.toFixed(1), 'h', w.height.toFixed(1), it.fontName, it.fontHeight?.toFixed(1));
