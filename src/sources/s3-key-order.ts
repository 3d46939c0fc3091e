/**
 * S3 lists keys in UTF-8 binary order, which is Unicode code point order. JavaScript's `<` compares UTF-16 code
 * units and disagrees for characters above U+FFFF against U+E000..U+FFFF, so keys are compared as UTF-8 bytes.
 */
export function compareS3Keys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
