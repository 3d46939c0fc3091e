/**
 * Where `mc:Choice` elements stand in a part's XML. mammoth reads an `mc:AlternateContent`'s Fallback and skips its
 * Choice, so the steps that rewrite the XML for mammoth leave what stands in a Choice alone.
 */

/** The [start, end) offsets of each outermost `mc:Choice`, whatever its prefix. */
export function choiceRanges(xml: string): [number, number][] {
  const ranges: [number, number][] = [];
  const starts: number[] = [];
  const tags = /<(\/?)[\w.-]+:Choice\b[^>]*?(\/?)>/g;
  for (let match = tags.exec(xml); match; match = tags.exec(xml)) {
    if (match[2] === '/') continue;
    if (match[1] === '') starts.push(match.index);
    else {
      const start = starts.pop();
      if (start !== undefined && starts.length === 0) ranges.push([start, match.index]);
    }
  }
  return ranges;
}
