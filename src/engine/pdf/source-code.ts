/**
 * Source code on a typewriter page: a program printed in Courier (`enscript`, `a2ps`, an editor's print), a thesis's
 * listing in its appendix. Every line there is monospaced, so the font cannot tell code from prose as it does on a
 * page of proportional text, and a transcript or a lease typed in Courier must stay prose. Code tells itself by how
 * its lines end and start and by its operators (`{`, `;`, `):`, `==`, `->`, `x = …`, `f(x)`), and by how densely
 * it holds brackets and signs. A run of such lines is code, kept line by line as set; where runs hold most of the
 * lines, the page is a listing and all of it is code (its comments and strings too). Pure.
 */

import type { TextLine } from './types.js';

/** How a line of code ends or starts, or an operator prose does not use. */
const CODE_END = /(?:[{}]|\)\s*:|=>|\*\/)\s*$/;
const STATEMENT_END = /;\s*$/;
const CODE_START = /^\s*(?:[{}]|#\s*(?:include|define|ifn?def|if|endif|pragma)\b|@[A-Za-z]\w*)/;
const OPERATOR = /(?<![=!<>])(?:===?|!==?|<=|>=)(?!=)|&&|\|\||=>|->|::|[\w\]]\+\+\s*[;),]|[-+*/%|&^]=|:=|<<|>>/;
/** An assignment (`x = 1`, `self.width = width`, `values[i] = 0`). */
const ASSIGNMENT = /^\s*[A-Za-z_$][\w$.]*(?:\[[^\]]*\])?\s*=\s*[^=\s]/;
/** A call ending the line (`free(values);`, `def f(self, text):`). */
const CALL_END = /[A-Za-z_$][\w$.]*\((?!e?s\))[^()]*\)\s*[,;:{]?\s*$/;
/** A call or a member (`free(values`, `re.escape`), not a plural in brackets (`author(s)`). */
const CALL_OR_MEMBER = /[\w\]]\((?!e?s\))|\w\.[A-Za-z_]/;
/** A module imported (`import re`, `from collections import Counter`). */
const IMPORT = /^\s*(?:import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+)*|from\s+[\w.]+\s+import\s+[\w\s,*()]+)\s*;?\s*$/;
/** A line of a diagram typed with characters (`+-+-+`, `|<--->|`, `└──┘`): drawing characters, six or more, and few else. */
const DRAWING = /[-+|=_/\\<>*~^#.:─━│┃┌┐└┘├┤┬┴┼═║╔╗╚╝╠╣╦╩╬]/gu;
const MIN_DRAWING = 6;
const DRAWING_SHARE = 0.6;
/** A line boxed in by bars (a diagram's fields, `|  Version  |  Type  |`). */
const BOXED = /^\s*[|│┃║].*[|│┃║]\s*$/u;
/** A line without a letter (a diagram's ruler of bit numbers), which a diagram below it takes in. */
const NO_LETTER = /^[^\p{L}]*$/u;
/** A comment's line, or a line led by a keyword: code among code, nothing alone. */
const COMMENT = /^\s*(?:\/\/|\/\*|\*(?:\s|$)|#|--\s)/;
const KEYWORD =
  /^\s*(?:import|from|def|class|return|elif|else|try|except|finally|with|const|let|var|function|public|private|protected|static|void|int|char|struct|package|fn|func|case|switch|break|continue|pass|raise|throw|yield|async|await|export)\b/;
/** Signs prose rarely holds; what a legal clause ending in `;` holds is not among them. */
const CODE_SIGN = /[{}=<>&|*\\]/;
const SIGNS = /[{}()[\];=<>&|*\\]/g;

/** Lines without a sign of code a run bridges (a comment's prose, a string's lines). */
const RUN_GAP = 2;
/** Share of a run's printed characters that are brackets and signs, at least (prose in Courier: 0.02; code 0.05–0.2). */
const RUN_SIGNS = 0.05;
/** Share of a run's lines that only code reads so, over which it is code however few its signs. */
const RUN_STRONG_LINES = 0.5;
/** Share of a run's lines with a sign of code, at least. */
const RUN_SIGNED_LINES = 0.5;
/** Share of the lines in runs of code over which the whole page is a listing. */
const LISTING_SHARE = 0.6;

/** 2: a line only code reads so; 1: a comment or a keyword's line; 0: nothing of code. */
function signOfCode(text: string): 0 | 1 | 2 {
  if (isDrawing(text) || CODE_END.test(text) || CODE_START.test(text) || OPERATOR.test(text) || ASSIGNMENT.test(text) || CALL_END.test(text) || IMPORT.test(text)) return 2;
  // A statement's `;`, not a clause's (`…called the Tenant;`, `the public;`): a sign of code, a call or a member.
  if (STATEMENT_END.test(text) && (CODE_SIGN.test(text) || CALL_OR_MEMBER.test(text))) return 2;
  return COMMENT.test(text) || KEYWORD.test(text) || BOXED.test(text) ? 1 : 0;
}

/** Two kinds of drawing character at least: a rule of one (`-----`, `=====` under a title) is no diagram's. */
function isDrawing(text: string): boolean {
  const drawing = text.match(DRAWING);
  if (!drawing || drawing.length < MIN_DRAWING || drawing.length < DRAWING_SHARE * text.replace(/\s/g, '').length) return false;
  return drawing.some((char) => char !== drawing[0]);
}

function signShare(texts: readonly string[]): number {
  let signs = 0;
  let printed = 0;
  for (const text of texts) {
    signs += text.match(SIGNS)?.length ?? 0;
    printed += text.replace(/\s/g, '').length;
  }
  return printed > 0 ? signs / printed : 0;
}

/** For each line (the region's, top to bottom, as its text reads), whether it is source code. */
export function sourceCodeLines(texts: readonly string[]): boolean[] {
  const signs = texts.map(signOfCode);
  const code = texts.map(() => false);
  let inRuns = 0;
  for (let i = 0; i < texts.length; i++) {
    if (signs[i] !== 2) continue;
    let start = i;
    let end = i;
    for (let j = i + 1, misses = 0; j < texts.length && misses <= RUN_GAP; j++) {
      if (signs[j]! > 0) {
        end = j;
        misses = 0;
      } else misses++;
    }
    // The comment leading the code (a line led by a keyword may be prose's: `from a script of your own`), a
    // diagram's ruler of numbers.
    while (start > 0 && (COMMENT.test(texts[start - 1]!) || NO_LETTER.test(texts[start - 1]!)) && !code[start - 1]) start--;
    const run = signs.slice(start, end + 1);
    const strong = run.filter((sign) => sign === 2).length;
    const signed = run.filter((sign) => sign > 0).length;
    // Code in long names (Python's keyword arguments) holds fewer signs: most of its lines then read as code alone.
    // A diagram's lines of drawing characters hold few of code's signs.
    const runTexts = texts.slice(start, end + 1);
    const dense = strong >= RUN_STRONG_LINES * run.length || runTexts.filter(isDrawing).length >= 2 || signShare(runTexts) >= RUN_SIGNS;
    if (strong >= 2 && signed >= RUN_SIGNED_LINES * run.length && dense) {
      for (let k = start; k <= end; k++) code[k] = true;
      inRuns += end - start + 1;
    }
    i = end;
  }
  return inRuns >= LISTING_SHARE * texts.length ? texts.map(() => true) : code;
}

/** The lines of a typewriter page's region that are source code (its running header and footer lines aside). */
export function sourceCodeOf(lines: readonly TextLine[]): ReadonlySet<TextLine> {
  const body = lines.filter((line) => !line.zone);
  const code = sourceCodeLines(body.map((line) => line.text));
  return new Set(body.filter((_, i) => code[i]));
}
