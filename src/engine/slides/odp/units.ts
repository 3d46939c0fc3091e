/** ODF lengths (`2.5cm`, `12mm`, `1in`, `72pt`, `6pc`, `96px`) in centimetres; null when unreadable. */

const CENTIMETRES_PER_UNIT: Record<string, number> = {
  cm: 1,
  mm: 0.1,
  in: 2.54,
  pt: 2.54 / 72,
  pc: 2.54 / 6,
  px: 2.54 / 96,
};

export function lengthInCentimetres(value: string | undefined): number | null {
  if (value === undefined) return null;
  const match = /^\s*(-?\d*\.?\d+(?:e[-+]?\d+)?)\s*(cm|mm|in|pt|pc|px)?\s*$/i.exec(value);
  if (match === null) return null;
  const number = Number(match[1]);
  const factor = CENTIMETRES_PER_UNIT[(match[2] ?? 'cm').toLowerCase()];
  if (!Number.isFinite(number) || factor === undefined) return null;
  return number * factor;
}

/** The translation of a `draw:transform` (`rotate (0.5) translate (2cm 3cm)`), for shapes without svg:x/svg:y. */
export function transformTranslation(transform: string | undefined): { x: number; y: number } | null {
  if (transform === undefined) return null;
  const match = /translate\s*\(\s*([^\s,)]+)[\s,]+([^\s,)]+)\s*\)/.exec(transform);
  if (match === null) return null;
  const x = lengthInCentimetres(match[1]);
  const y = lengthInCentimetres(match[2]);
  return x === null || y === null ? null : { x, y };
}
