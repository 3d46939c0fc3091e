/** URL helpers for the HTML path: resolution against `<base href>` and `srcset` parsing. */

/** `url` made absolute against `base`; unchanged when there is no base or it cannot be resolved. */
export function resolveUrl(url: string, base: string | null): string {
  const trimmed = url.trim();
  if (base === null || trimmed === '') return trimmed;
  if (/^(?:data|javascript|mailto|tel|about|blob):/i.test(trimmed)) return trimmed;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return trimmed;
  }
}

/** An absolute base URL from a `<base href>` value, or null (relative or unparsable bases are ignored). */
export function absoluteBase(href: string | null): string | null {
  if (href === null || href.trim() === '') return null;
  try {
    return new URL(href.trim()).href;
  } catch {
    return null;
  }
}

export interface SrcsetCandidate {
  url: string;
  /** Width descriptor (`640w`). */
  width?: number;
  /** Pixel density descriptor (`2x`); 1 when the candidate has no descriptor. */
  density?: number;
}

/**
 * The candidates of a `srcset`, following the HTML parsing rules closely enough for real pages: URLs may contain
 * commas (`w_100,h_100` CDN paths), a URL is ended by whitespace, and a trailing comma glued to a URL ends the
 * candidate.
 */
export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let position = 0;
  const length = srcset.length;
  while (position < length) {
    while (position < length && /[\s,]/.test(srcset[position] ?? '')) position += 1;
    if (position >= length) break;
    const urlStart = position;
    while (position < length && !/\s/.test(srcset[position] ?? '')) position += 1;
    let url = srcset.slice(urlStart, position);
    let descriptorText = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      const descriptorStart = position;
      let depth = 0;
      while (position < length) {
        const char = srcset[position];
        if (char === '(') depth += 1;
        else if (char === ')') depth = Math.max(0, depth - 1);
        else if (char === ',' && depth === 0) break;
        position += 1;
      }
      descriptorText = srcset.slice(descriptorStart, position).trim();
      position += 1;
    }
    if (url === '') continue;
    const candidate: SrcsetCandidate = { url };
    for (const descriptor of descriptorText.split(/\s+/).filter(Boolean)) {
      const match = /^(\d+(?:\.\d+)?|\.\d+)([wx])$/i.exec(descriptor);
      if (match === null) continue;
      const value = Number(match[1]);
      if ((match[2] ?? '').toLowerCase() === 'w') candidate.width = value;
      else candidate.density = value;
    }
    if (candidate.width === undefined && candidate.density === undefined) candidate.density = 1;
    candidates.push(candidate);
  }
  return candidates;
}

/**
 * The largest candidate: by width descriptor when any candidate has one (widths say more than densities about
 * the file), otherwise by density. Null for an empty srcset.
 */
export function largestSrcsetCandidate(srcset: string): SrcsetCandidate | null {
  const candidates = parseSrcset(srcset);
  if (candidates.length === 0) return null;
  const withWidth = candidates.filter((candidate) => candidate.width !== undefined);
  const pool = withWidth.length > 0 ? withWidth : candidates;
  let best = pool[0] as SrcsetCandidate;
  for (const candidate of pool) {
    const size = withWidth.length > 0 ? (candidate.width ?? 0) : (candidate.density ?? 1);
    const bestSize = withWidth.length > 0 ? (best.width ?? 0) : (best.density ?? 1);
    if (size > bestSize) best = candidate;
  }
  return best;
}
