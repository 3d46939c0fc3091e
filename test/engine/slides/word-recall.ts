/** Share of the reference's words (letters and digits, case folded, counted with repeats) found in `actual`. */
export function wordRecall(reference: string, actual: string): number {
  const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const available = new Map<string, number>();
  for (const word of words(actual)) available.set(word, (available.get(word) ?? 0) + 1);
  const expected = words(reference);
  if (expected.length === 0) return 1;
  let found = 0;
  for (const word of expected) {
    const left = available.get(word) ?? 0;
    if (left > 0) {
      found += 1;
      available.set(word, left - 1);
    }
  }
  return found / expected.length;
}
