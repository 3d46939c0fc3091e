/**
 * A linear RTF tokenizer over the file's bytes. It knows the syntax only, never what a control word means: groups
 * (`{` `}`), control words (`\name` with an optional signed numeric parameter, the one space after it being part of
 * the word), control symbols (`\` and one non-letter), hexadecimal bytes (`\'hh`), runs of text bytes, and the
 * binary data after `\binN` (reported as one token and stepped over by its length, since it may contain any byte).
 *
 * It is a cursor rather than a producer of token objects: `next()` moves to the next token and leaves its fields on
 * the tokenizer, so a 50 MiB document costs no allocation per token beyond control-word names. Every byte is looked
 * at once; nothing is recursive (groups are reported, nesting is the reader's business).
 *
 * Line breaks in the file (CR, LF) are not text in RTF and are skipped; a `\` followed by one is `\par` (the
 * spec's equivalence), reported as the control word `par`.
 */

export const TokenKind = {
  End: 0,
  GroupStart: 1,
  GroupEnd: 2,
  ControlWord: 3,
  ControlSymbol: 4,
  HexByte: 5,
  Text: 6,
  Binary: 7,
} as const;
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const QUOTE = 0x27;
const MINUS = 0x2d;

/** Names are at most 32 letters and parameters at most 10 digits in valid RTF; longer ones are read but cut. */
const MAX_NAME_LENGTH = 32;
const MAX_PARAMETER_DIGITS = 10;

export class RtfTokenizer {
  /** The current token's kind. */
  kind: TokenKind = TokenKind.End;
  /** ControlWord: the name (lower-case letters as written). */
  word = '';
  /** ControlWord: the numeric parameter, or null when the word has none. */
  parameter: number | null = null;
  /** ControlSymbol: the symbol character; HexByte: the byte value. */
  symbol = '';
  byte = 0;
  /** Text and Binary: the byte range [start, end) in the input. */
  start = 0;
  end = 0;

  private position = 0;
  private readonly length: number;

  constructor(private readonly bytes: Uint8Array) {
    this.length = bytes.length;
  }

  /** Offset of the next unread byte. */
  get offset(): number {
    return this.position;
  }

  next(): TokenKind {
    const bytes = this.bytes;
    for (;;) {
      // Line breaks between tokens are formatting of the file, not content.
      while (this.position < this.length && (bytes[this.position] === CR || bytes[this.position] === LF)) this.position += 1;
      if (this.position >= this.length) return (this.kind = TokenKind.End);
      const byte = bytes[this.position] as number;
      if (byte === OPEN) {
        this.position += 1;
        return (this.kind = TokenKind.GroupStart);
      }
      if (byte === CLOSE) {
        this.position += 1;
        return (this.kind = TokenKind.GroupEnd);
      }
      if (byte !== BACKSLASH) return this.readText();
      const kind = this.readControl();
      // A malformed `\'` escape gives no token: the bytes after it are read as usual.
      if (kind !== null) return kind;
    }
  }

  private readText(): TokenKind {
    const bytes = this.bytes;
    const start = this.position;
    let index = start;
    while (index < this.length) {
      const byte = bytes[index] as number;
      if (byte === BACKSLASH || byte === OPEN || byte === CLOSE || byte === CR || byte === LF) break;
      index += 1;
    }
    this.start = start;
    this.end = index;
    this.position = index;
    return (this.kind = TokenKind.Text);
  }

  private readControl(): TokenKind | null {
    const bytes = this.bytes;
    const after = this.position + 1;
    if (after >= this.length) {
      // A lone backslash at the very end of a (truncated) file.
      this.position = after;
      return (this.kind = TokenKind.End);
    }
    const first = bytes[after] as number;
    if (!isLetter(first)) {
      if (first === QUOTE) return this.readHexByte(after + 1);
      this.position = after + 1;
      if (first === CR || first === LF) {
        this.word = 'par';
        this.parameter = null;
        return (this.kind = TokenKind.ControlWord);
      }
      this.symbol = String.fromCharCode(first);
      return (this.kind = TokenKind.ControlSymbol);
    }

    let index = after;
    while (index < this.length && isLetter(bytes[index] as number)) index += 1;
    const nameEnd = Math.min(index, after + MAX_NAME_LENGTH);
    let name = '';
    for (let letter = after; letter < nameEnd; letter += 1) name += String.fromCharCode(bytes[letter] as number);
    this.word = name;

    let parameter: number | null = null;
    let negative = false;
    let digitsStart = index;
    if (index < this.length && bytes[index] === MINUS && index + 1 < this.length && isDigit(bytes[index + 1] as number)) {
      negative = true;
      index += 1;
      digitsStart = index;
    }
    if (index < this.length && isDigit(bytes[index] as number)) {
      let value = 0;
      while (index < this.length && isDigit(bytes[index] as number)) {
        if (index - digitsStart < MAX_PARAMETER_DIGITS) value = value * 10 + ((bytes[index] as number) - 0x30);
        index += 1;
      }
      parameter = negative ? -value : value;
    }
    // The one space ending a control word belongs to it.
    if (index < this.length && bytes[index] === SPACE) index += 1;
    this.parameter = parameter;
    this.position = index;

    if (this.word === 'bin') {
      const size = Math.max(0, Math.min(parameter ?? 0, this.length - index));
      this.start = index;
      this.end = index + size;
      this.position = index + size;
      return (this.kind = TokenKind.Binary);
    }
    return (this.kind = TokenKind.ControlWord);
  }

  private readHexByte(at: number): TokenKind | null {
    const high = hexValue(this.bytes[at]);
    const low = hexValue(this.bytes[at + 1]);
    if (high < 0 || low < 0) {
      this.position = at;
      return null;
    }
    this.byte = high * 16 + low;
    this.position = at + 2;
    return (this.kind = TokenKind.HexByte);
  }
}

function isLetter(byte: number): boolean {
  return (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a);
}

function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x41 + 10;
  return -1;
}
