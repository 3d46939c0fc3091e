import { loadTruthPages } from '../bench/lib/main-text-pages.js';
import { tokenScore, wordTokens } from '../bench/lib/token-score.js';
import { htmlToModel } from '../src/engine/html/convert-html.js';
const part = process.argv[3] ?? 'tune';
const pages = (await loadTruthPages(process.argv[2]!)).filter((p) => p.part === part);
const vis = (m: string) => m.replace(/!\[[^\]]*\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, ' ').replace(/\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, ']');
function kind(md: string, i: number, n: number): string {
  const pos = i === 0 ? 'first' : i >= n - 3 ? 'last3' : 'mid';
  let k = 'para';
  if (/^#\s/.test(md)) k = 'h1'; else if (/^#{2,6}\s/.test(md)) k = 'h2+';
  else if (/^\s*([-*+]|\d+\.)\s/.test(md)) k = 'list';
  else if (/^\|/.test(md) || /^<table/.test(md)) k = 'table';
  else if (/^>/.test(md)) k = 'quote';
  else if (/^```/.test(md)) k = 'code';
  else if (/^!\[/.test(md.trim()) && vis(md).trim() === '') k = 'image';
  else if (/^[*_][^*_]/.test(md.trim()) && /[*_]$/.test(md.trim())) k = 'italic';
  else if (wordTokens(vis(md)).length < 8) k = 'short';
  return `${k}/${pos}`;
}
const gains = new Map<string, { pages: number; dF1: number; extraTok: number; goodTok: number; samples: string[] }>();
let base = 0;
for (const page of pages) {
  const model = htmlToModel(page.html);
  const blocks = model.pages.flatMap((p) => p.blocks.filter((b) => b.furniture !== true).map((b) => b.markdown));
  const full = tokenScore(page.truth, vis(blocks.join('\n\n')));
  if (!full) continue;
  base += full.f1;
  const truthBag = new Map<string, number>();
  for (const t of wordTokens(page.truth)) truthBag.set(t, (truthBag.get(t) ?? 0) + 1);
  // extra share per block (greedy, in order)
  const byKind = new Map<string, number[]>();
  blocks.forEach((md, i) => {
    const toks = wordTokens(vis(md));
    if (toks.length === 0) return;
    let extra = 0;
    for (const t of toks) { const c = truthBag.get(t) ?? 0; if (c > 0) truthBag.set(t, c - 1); else extra++; }
    const k = kind(md, i, blocks.length);
    const g = gains.get(k) ?? { pages: 0, dF1: 0, extraTok: 0, goodTok: 0, samples: [] };
    g.extraTok += extra; g.goodTok += toks.length - extra; gains.set(k, g);
    if (extra / toks.length >= 0.7) { (byKind.get(k) ?? byKind.set(k, []).get(k)!).push(i); if (g.samples.length < 400) g.samples.push(`${page.id}: ${md.slice(0, 100).replace(/\n/g, ' ')}`); }
  });
  for (const [k, idx] of byKind) {
    const drop = new Set(idx);
    const s = tokenScore(page.truth, vis(blocks.filter((_, i) => !drop.has(i)).join('\n\n')))!;
    const g = gains.get(k)!; g.pages++; g.dF1 += s.f1 - full.f1;
  }
}
console.log('pages', pages.length, 'mean F1', (base / pages.length).toFixed(5));
for (const [k, g] of [...gains].sort((a, b) => b[1].dF1 - a[1].dF1)) console.log(k.padEnd(14), 'pages', String(g.pages).padStart(4), 'F1 gain if mostly-extra blocks dropped', (g.dF1 / pages.length).toFixed(5), 'extra tok', g.extraTok, 'good tok', g.goodTok);
const want = process.argv[4];
if (want) for (const s of gains.get(want)?.samples ?? []) console.log(s);
