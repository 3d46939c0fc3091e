/**
 * An RFC 4180 parser for delimited text, and delimiter detection.
 *
 * The parser reads: fields separated by one delimiter character; records ended by CRLF, LF or a lone CR; fields
 * quoted with `"`, inside which delimiters and line breaks are data and `""` is one quote. It is lenient where real
 * files break the RFC: a quote in the middle of an unquoted field is kept as a character (`5" disk`), text after a
 * closing quote is appended to the field (`"a"b` → `ab`), and an opening quote that is never closed is read as a
 * plain character rather than swallowing the rest of the file (reported through `unterminatedQuoteAt`).
 *
 * It is linear in the text: fields are sliced from the input (quoted fields join their slices once), never built a
 * character at a time, and each record is handed to a callback as it is read, so a caller can render and drop it.
 */

export type RecordCallback = (fields: string[]) => boolean | void;

export interface CsvParseResult {
  /** Records read (including blank lines, which are records of one empty field). */
  records: number;
  /** Offset of the first opening quote that was never closed, or null. */
  unterminatedQuoteAt: number | null;
  /** True when the callback stopped the parse before the end of the text. */
  stopped: boolean;
}

/** The delimiters detectDelimiter chooses between, in order of preference when they tie. */
export const CANDIDATE_DELIMITERS = ['\t', ',', ';', '|'] as const;

const QUOTE = '"';

/**
 * Parses `text`, calling `onRecord` with each record's fields in order; returning false from it stops the parse.
 */
export function parseCsv(text: string, delimiter: string, onRecord: RecordCallback): CsvParseResult {
  if (delimiter.length !== 1 || delimiter === QUOTE || delimiter === '\r' || delimiter === '\n') {
    throw new Error(`Unsupported CSV delimiter ${JSON.stringify(delimiter)}`);
  }
  // The hot loop allocates nothing but the fields and their arrays: no per-field result objects.
  const special = new RegExp(`[${escapeForCharClass(delimiter)}\\r\\n]`, 'g');
  const delimiterCode = delimiter.charCodeAt(0);
  const length = text.length;
  let position = 0;
  let fields: string[] = [];
  let records = 0;
  let unterminatedQuoteAt: number | null = null;

  while (position < length) {
    let value: string;
    let end: number;
    if (text.charCodeAt(position) === 34 /* " */) {
      const closing = closingQuote(text, position + 1);
      if (closing === -1) {
        unterminatedQuoteAt ??= position;
        end = nextSpecial(special, text, position);
        value = text.slice(position, end);
      } else {
        value = unquote(text, position + 1, closing);
        end = nextSpecial(special, text, closing + 1);
        // Text between the closing quote and the delimiter is not RFC 4180; keep it rather than lose it.
        if (end > closing + 1) value += text.slice(closing + 1, end);
      }
    } else {
      end = nextSpecial(special, text, position);
      value = text.slice(position, end);
    }
    fields.push(value);

    const code = end < length ? text.charCodeAt(end) : -1;
    if (code === delimiterCode) {
      position = end + 1;
      // A delimiter as the very last character: the record ends with one more, empty, field.
      if (position < length) continue;
      fields.push('');
    } else if (code === 13 /* \r */) {
      position = text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
    } else {
      position = end + 1; // \n, or past the end of the text
    }
    records += 1;
    const record = fields;
    fields = [];
    if (onRecord(record) === false) return { records, unterminatedQuoteAt, stopped: position < length };
  }
  return { records, unterminatedQuoteAt, stopped: false };
}

/** The next delimiter, CR or LF at or after `from`, or the end of the text. */
function nextSpecial(special: RegExp, text: string, from: number): number {
  special.lastIndex = from;
  const match = special.exec(text);
  return match ? match.index : text.length;
}

/** The closing quote of a quoted field whose content starts at `start` (skipping doubled quotes), or -1. */
function closingQuote(text: string, start: number): number {
  let from = start;
  for (;;) {
    const quote = text.indexOf(QUOTE, from);
    if (quote === -1) return -1;
    if (text.charCodeAt(quote + 1) !== 34) return quote;
    from = quote + 2;
  }
}

/** The content between `start` and the closing quote at `end`, with doubled quotes made single. */
function unquote(text: string, start: number, end: number): string {
  const content = text.slice(start, end);
  return content.includes('""') ? content.replaceAll('""', '"') : content;
}

function escapeForCharClass(character: string): string {
  return /[\\\]^-]/.test(character) ? `\\${character}` : character;
}

/** Convenience for small inputs and tests: every record as an array of fields. */
export function parseCsvRows(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  parseCsv(text, delimiter, (fields) => {
    rows.push(fields);
  });
  return rows;
}

/** Characters of the text sampled by detectDelimiter. */
const DETECTION_SAMPLE_CHARS = 64 * 1024;
/** Records sampled by detectDelimiter. */
const DETECTION_RECORDS = 50;

interface DelimiterScore {
  delimiter: string;
  /** The most common field count among non-blank sampled records. */
  mode: number;
  /** Share of the non-blank sampled records that have `mode` fields. */
  share: number;
  /** Whether the first record (the header) has `mode` fields. */
  headerAgrees: boolean;
  /** Non-blank records sampled. */
  records: number;
}

/**
 * Chooses the delimiter among tab, comma, semicolon and pipe that splits the first ~50 records (quote-aware) most
 * consistently: it must give at least two fields; then a delimiter on which at least 90% of the records agree and
 * with which the header agrees wins, then the one giving more fields, then the more consistent one, then the
 * order tab, comma, semicolon, pipe. Text no candidate splits is read as comma-separated (one column).
 */
export function detectDelimiter(text: string): string {
  return delimiterScores(text)[0]?.delimiter ?? ',';
}

/**
 * Whether text is a table rather than prose: at least two records that one delimiter splits consistently (as
 * detectDelimiter judges it) into two fields or more. Lines of prose, a list of single values, one line: no.
 */
export function isDelimitedText(text: string): boolean {
  const best = delimiterScores(text)[0];
  return best !== undefined && best.records >= 2 && isConsistent(best);
}

/** The candidate delimiters that split the sample into two fields or more, best first. */
function delimiterScores(text: string): DelimiterScore[] {
  const truncated = text.length > DETECTION_SAMPLE_CHARS;
  const sample = truncated ? text.slice(0, DETECTION_SAMPLE_CHARS) : text;
  const scores: DelimiterScore[] = [];
  for (const delimiter of CANDIDATE_DELIMITERS) {
    const counts: number[] = [];
    const { stopped } = parseCsv(sample, delimiter, (fields) => {
      if (!(fields.length === 1 && fields[0] === '')) counts.push(fields.length);
      return counts.length < DETECTION_RECORDS;
    });
    // The sample may end inside the last record: do not let its partial field count vote.
    if (truncated && !stopped && counts.length > 1) counts.pop();
    const score = scoreCounts(delimiter, counts);
    if (score.mode >= 2) scores.push(score);
  }
  return scores.sort(
    (a, b) =>
      Number(isConsistent(b)) - Number(isConsistent(a)) ||
      b.mode - a.mode ||
      b.share - a.share ||
      preference(a.delimiter) - preference(b.delimiter),
  );
}

function preference(delimiter: string): number {
  return (CANDIDATE_DELIMITERS as readonly string[]).indexOf(delimiter);
}

function isConsistent(score: DelimiterScore): boolean {
  return score.share >= 0.9 && score.headerAgrees;
}

function scoreCounts(delimiter: string, counts: number[]): DelimiterScore {
  if (counts.length === 0) return { delimiter, mode: 0, share: 0, headerAgrees: false, records: 0 };
  const frequency = new Map<number, number>();
  for (const count of counts) frequency.set(count, (frequency.get(count) ?? 0) + 1);
  let mode = 0;
  let best = 0;
  for (const [count, times] of frequency) {
    if (times > best || (times === best && count > mode)) {
      mode = count;
      best = times;
    }
  }
  return { delimiter, mode, share: best / counts.length, headerAgrees: counts[0] === mode, records: counts.length };
}
