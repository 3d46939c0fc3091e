/**
 * Text encoded twice: UTF-8 bytes read as windows-1252 (or ISO-8859-1) and written out again as UTF-8, so that
 * "don’t" arrives as "donâ€™t" (or "donâ\u0080\u0099t") and a no-break space as "Â ". Pages saved by a crawler that
 * guessed the wrong charset and CSV exports from a database that did carry it; the bytes are valid UTF-8, so no
 * decoder sees anything wrong. Each such run is the windows-1252 (or Latin-1) reading of one UTF-8 sequence: a lead
 * byte C2–F4 and one to three continuation bytes 80–BF. Turned back into those bytes, it decodes to the character
 * meant.
 *
 * Legitimate text holds such runs too ("Ã©" could be written on purpose), so a text is repaired only on evidence
 * that it was encoded twice: a run holding a C1 control character (U+0080–U+009F, which no text writes), or
 * several runs of the shapes double encoding makes of punctuation and accented letters ("â€™", "â€œ", "Ã©",
 * "Â "). Then every run is turned back; the rest of the text is left as it is. The other way round, windows-1252
 * text read as ISO-8859-1 and saved as UTF-8 leaves its curly quotes and dashes as C1 controls, which are read as
 * windows-1252 (`replaceC1Controls`). Pure.
 */

/** windows-1252's characters for the bytes 80–9F where they differ from ISO-8859-1's C1 controls. */
const WINDOWS_1252_HIGH: Record<string, number> = {
  '€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89, 'Š': 0x8a,
  '‹': 0x8b, 'Œ': 0x8c, 'Ž': 0x8e, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97,
  '˜': 0x98, '™': 0x99, 'š': 0x9a, '›': 0x9b, 'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
};

/** The byte a character stands for when UTF-8 was read as windows-1252 or ISO-8859-1; undefined for any other. */
function byteOf(char: string): number | undefined {
  const code = char.charCodeAt(0);
  if (code >= 0x80 && code <= 0xff) return code;
  return WINDOWS_1252_HIGH[char];
}

/** The characters a continuation byte (80–BF) can be read as: Latin-1's 80–BF and windows-1252's 80–9F. */
const CONTINUATION = `[\\u0080-\\u00bf${Object.keys(WINDOWS_1252_HIGH).join('')}]`;
/** A lead byte read as a character (C2–F4: Â to ô) and the continuation characters it needs. */
const RUN = new RegExp(`[\\u00c2-\\u00df]${CONTINUATION}|[\\u00e0-\\u00ef]${CONTINUATION}{2}|[\\u00f0-\\u00f4]${CONTINUATION}{3}`, 'gu');
/** A C1 control character: in a run, the ISO-8859-1 reading of a continuation byte, never text of its own. */
const C1_CONTROL = /[\u0080-\u009f]/u;
/**
 * Shapes double encoding makes of common characters: curly quotes, dashes and ellipses (E2 80 xx: "â€™", "â€”"), an
 * accented Latin letter (C3 xx: "Ã©", "Ã¼"), a no-break space or a Latin-1 sign (C2 xx: "Â ", "Â©").
 */
const TELLING = /^(?:â€.|Ã[\u00a0-\u00bf€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]|Â[\u00a0-\u00bf])$/u;
/** Telling runs, without any C1 control, that make a text count as encoded twice. */
const MIN_TELLING_RUNS = 3;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The character a run stands for, or undefined when its bytes are not one well-formed UTF-8 sequence. */
function decodeRun(run: string): string | undefined {
  const bytes: number[] = [];
  for (const char of run) {
    const byte = byteOf(char);
    if (byte === undefined) return undefined;
    bytes.push(byte);
  }
  try {
    const decoded = utf8.decode(Uint8Array.from(bytes));
    return [...decoded].length === 1 ? decoded : undefined;
  } catch {
    return undefined;
  }
}

export interface Repaired {
  text: string;
  /** How many characters were turned back (0: the text is returned as it came). */
  runs: number;
}

/**
 * A text encoded three times over reads "Ã¢â‚¬â„¢" for "’": each pass undoes one encoding, while the evidence
 * holds; more than this many are not seen.
 */
const MAX_PASSES = 3;

/**
 * `text` with its doubly encoded runs turned back, when it shows it was encoded twice (see above), and its C1
 * controls read as windows-1252 (`replaceC1Controls`).
 */
export function repairDoubleEncoding(text: string): Repaired {
  const { pieces, runs } = repairPieces([text]);
  return { text: pieces[0] ?? text, runs };
}

/**
 * The same for a text held in pieces (a page's text nodes, each turned back on its own): the evidence is weighed over
 * all of them, since a page may show most of its doubly encoded characters through entities, which only the parsed
 * markup resolves. The pieces come back in a new array, with how many characters were turned back.
 */
export function repairPieces(pieces: readonly string[]): { pieces: string[]; runs: number } {
  let current = [...pieces];
  let runs = 0;
  for (let pass = 0; pass < MAX_PASSES && showsDoubleEncoding(current); pass++) {
    let turned = 0;
    current = current.map((piece) => {
      const back = turnBack(piece);
      turned += back.runs;
      return back.text;
    });
    runs += turned;
    if (turned === 0) break;
  }
  current = current.map((piece) => {
    const replaced = replaceC1Controls(piece);
    runs += replaced.runs;
    return replaced.text;
  });
  return { pieces: current, runs };
}

/** Whether the pieces show that their text was encoded twice: a run holding a C1 control, or enough telling runs. */
function showsDoubleEncoding(pieces: readonly string[]): boolean {
  let telling = 0;
  for (const piece of pieces) {
    // Every run starts with a character from U+00C2 to U+00F4: most texts have none, and cost one scan.
    if (!/[\u00c2-\u00f4]/u.test(piece)) continue;
    for (const [run] of piece.matchAll(RUN)) {
      if (decodeRun(run) === undefined) continue;
      if (C1_CONTROL.test(run)) return true;
      if (TELLING.test(run) && ++telling >= MIN_TELLING_RUNS) return true;
    }
  }
  return false;
}

/** Every run of `text` turned back into the character it stands for. */
function turnBack(text: string): Repaired {
  let runs = 0;
  const repaired = text.replace(RUN, (run) => {
    const char = decodeRun(run);
    if (char === undefined) return run;
    runs += 1;
    return char;
  });
  return { text: repaired, runs };
}

/** windows-1252's characters for the C1 controls, the byte each stands for. */
const C1_AS_WINDOWS_1252 = new Map(Object.entries(WINDOWS_1252_HIGH).map(([char, byte]) => [String.fromCharCode(byte), char]));

/**
 * C1 controls that stand for windows-1252's punctuation: windows-1252 text read as ISO-8859-1 and saved as UTF-8
 * ("it\u0092s", "\u0093quoted\u0094"). No text writes a C1 control, so each one windows-1252 defines is replaced by
 * its character there; the five it leaves undefined stay.
 */
export function replaceC1Controls(text: string): Repaired {
  if (!C1_CONTROL.test(text)) return { text, runs: 0 };
  let runs = 0;
  const replaced = text.replace(/[\u0080-\u009f]/gu, (control) => {
    const char = C1_AS_WINDOWS_1252.get(control);
    if (char === undefined) return control;
    runs += 1;
    return char;
  });
  return { text: replaced, runs };
}
