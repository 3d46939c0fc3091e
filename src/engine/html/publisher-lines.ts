/**
 * The publisher's lines inside an article, recognised by what they say rather than by their markup: a short block
 * that speaks to the reader about the site, not about the article's subject. Readability keeps them (they are
 * paragraphs of prose beside the article), and their class names, when they have any, say nothing. Kinds:
 * - sign-up calls: the site's newsletter or mailing list offered ("Sign up for our newsletter", "delivered straight
 *   to your inbox");
 * - follow calls: the site's or the author's social accounts ("Follow us on Instagram and Facebook");
 * - comment notes: the comment form's rules ("Comments are closed", "By posting a comment, you consent…");
 * - paywall notes: the rest of the article offered to subscribers ("To read the rest of this story subscribe");
 * - reading-time lines ("8 min read", "Reading time: 11 minutes");
 * - the labels of the page's controls left as text: "Read more", "Back to top", "Show more", "Table of contents",
 *   "Share", "Print", "Advertisement" (a link, button or placeholder that is nothing but its label);
 * - tag lines: the post's tags or categories after their label ("Tags: budgeting, savings");
 * - date lines: the post's date marked up as a `<time>`, or written out in a plain block ("Published on June 23,
 *   2025"), alone or after a label ("Updated on <time>…</time>"); a date in a sentence, beside an event's name in a
 *   programme (in its list item or cell), or heading one of a diary's entries, is the article's own; more than two
 *   dates written out are a listing's or a thread's, one an entry.
 *
 * A line is short (a call, not a paragraph that mentions newsletters among other things) and holds no block of its
 * own; the article's own sentences about newsletters, social networks or subscriptions ("subscribe to industry
 * newsletters to follow trends") name no site of the reader's ("our", "your inbox") and stay.
 */
import { type DomElement, isElement, isText, isWordsOfASentence, normalisedLength, normalisedText, tagOf } from './dom.js';

/** A publisher's line is a call or a note, not a paragraph of the article: at most this long (characters). */
const LINE_MAX = 300;
/** A reading-time line holds little besides the time (a date, the author's name): at most this long. */
const READING_TIME_MAX = 60;
/** Raw text (whitespace uncollapsed) is at most this many times its collapsed length, in the pages seen. */
const RAW_SLACK = 8;
/** Below this much text (characters) the content is left as it is. */
const MIN_CONTENT = 300;
/** An article's reading time appears at most this often; more are a listing's, one a teaser. */
const MAX_READING_TIMES = 2;
/** An article gives its date written out at most this often (published, updated). */
const MAX_WRITTEN_DATES = 2;

const NEWSLETTER = String.raw`(?:newsletters?|mailing[ -]list|e-?mail[ -]list|bulletins?)`;
const SIGN_UP = String.raw`(?:sign(?:ing)?[ -]?up|subscribe|join|abonnieren|abonnez-vous|inscri(?:vez-vous|bete)|suscr[ií]bete|iscriviti)`;
/** The site's newsletter offered: a sign-up verb and the site's (our/my) newsletter, or the reader's inbox promised. */
const SIGN_UP_CALL = new RegExp(
  [
    String.raw`\b${SIGN_UP}\b[^.!?]{0,40}\b(?:(?:our|my|the)\b[^.!?]{0,30})?\b${NEWSLETTER}\b`,
    String.raw`\b(?:our|my)\b[^.!?]{0,30}\b${NEWSLETTER}\b[^.!?]{0,60}\b${SIGN_UP}\b`,
    String.raw`\b(?:delivered|straight|directly|sent|right)\b[^.!?]{0,20}\b(?:to|in|into)\s+your\s+(?:e-?mail\s+)?inbox\b`,
  ].join('|'),
  'iu',
);
const NEWSLETTER_WORD = /newsletter|mailing|e-?mail|bulletin|inbox/i;
/** An article's sentence about subscribing in general: its reader subscribes to others' newsletters. */
const GENERAL_SUBSCRIBING = /\b(?:subscrib(?:e|ing) to (?:industry|relevant|their|other|several|many)|(?:signing|sign) up for a newsletter)\b/i;
const NETWORKS = String.raw`(?:instagram|facebook|twitter|x|pinterest|linkedin|youtube|tiktok|threads|bluesky|mastodon|telegram|whatsapp|social media)`;
/** A network's name alone, the cheap first look for a follow call (`x` as a word only). */
const NETWORK_WORD = new RegExp(NETWORKS.replace('|x|', '|\\bx\\b|'), 'i');
/** The site's or author's accounts offered: "Follow us on", "Folgen Sie uns auf", "Suivez-nous sur", "Síguenos en". */
const FOLLOW_CALL = new RegExp(
  String.raw`\b(?:(?:follow|join|connect with|find|like)\s+(?:me|us)|folg(?:en sie|t|e) (?:uns|mir)|suivez-(?:nous|moi)|s[ií]guen(?:os|me)|seguici|seguimi)\b[^.!?]{0,40}\b(?:on|at|via|auf|sur|en|su)\b[^.!?]{0,40}\b${NETWORKS}\b`,
  'iu',
);
const COMMENT_NOTE =
  /\b(?:comments are (?:now )?closed|by (?:posting|submitting) (?:a|your|this) comment|you (?:must|need to) be (?:a member|logged in|signed in)(?: in order)? to (?:post a |leave a )?(?:comment|reply))/i;
const PAYWALL_NOTE =
  /\b(?:unlock (?:this|the full|the rest of this) (?:article|story)|to (?:read|continue reading) (?:the rest of )?this (?:article|story)[^.!?]{0,20}\bsubscribe|subscribe (?:now )?to (?:read|continue reading|unlock)|become a (?:paid )?(?:subscriber|member) to (?:read|unlock|continue))\b/i;
/** A control's label is a few words (characters). */
const CONTROL_LABEL_MAX = 40;
/** A control's whole label: a line that says nothing but what a click does. */
const CONTROL_LABEL = new RegExp(
  String.raw`^(?:read (?:the )?(?:more|full (?:review|story|article))|continue reading|back to (?:the )?top|scroll to top|(?:show|load|view|see) (?:more|less)|table of contents|get it now|jump to recipe|share(?: this(?: article| post| story| page| recipe)?)?(?: on (?:facebook|twitter|x|linkedin|whatsapp|pinterest))?|tweet|pin it|copy link|print(?: this(?: article| page| recipe)?)?|advertisement|` +
    String.raw`weiterlesen|mehr lesen|nach oben|inhaltsverzeichnis|teilen|anzeige|lire la suite|retour en haut|table des matières|partager|publicité|leer más|seguir leyendo|volver arriba|compartir|publicidad|continua a leggere|torna su|condividi|pubblicità)\s*[:.!…]*$`,
  'iu',
);
/** The post's tags or categories listed after a label: "Tags: budgeting, savings". */
const TAG_LINE = /^(?:tags?|tagged(?: with)?|filed under|schlagw(?:ö|oe)rter|étiquettes|mots-clés|etiquetas)\s*:\s*\S/iu;
const READING_TIME = /\b(?:\d+\s*(?:min(?:ute)?s?\.?|mins?\.?)\s+(?:read|de lecture|de lectura|di lettura)|(?:reading time|lesezeit|temps de lecture|tiempo de lectura)\s*:?\s*\d+)/i;

/** A follow call is a line of one or two sentences, not a paragraph that ends with one. */
const FOLLOW_MAX_SENTENCES = 2;

function sentences(text: string): string[] {
  return text.split(/[.!?]+\s+(?=\p{Lu})/u).filter((sentence) => sentence.trim() !== '');
}

const firstSentence = (text: string) => sentences(text)[0] ?? '';

export type PublisherLineKind = 'sign-up' | 'follow' | 'comments' | 'paywall' | 'reading-time' | 'control' | 'tags' | 'date';

/** A date line holds little besides its date (characters). */
const DATE_LINE_MAX = 80;
/** What a date line may say besides the `<time>`: a label, separators. */
const DATE_LABEL = /^(?:(?:(?:last|originally)\s+)?(?:updated|published|posted|modified|reviewed|released)(?:\s+(?:on|at))?|date|on)?[\s:|·•—–-]*$/iu;

const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const WEEKDAY = String.raw`(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\.?,?\s+`;
/** A day's date written out: "March 4, 2025", "4th of March 2025", "2025-03-04", "04/03/2025", a clock time after it. */
const WRITTEN_DATE = String.raw`(?:${WEEKDAY})?(?:${MONTH}\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH},?\s+\d{4}|\d{4}-\d{2}-\d{2}(?:T[\d:.+-]+Z?)?|\d{1,2}/\d{1,2}/\d{2,4}|\d{1,2}[.-]\d{1,2}[.-]\d{4})(?:,?\s+(?:at\s+)?\d{1,2}[:.]\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?(?:\s+[A-Z]{2,4})?)?`;
/** A line that is a post's date, written out without a `<time>`: the date alone or after a label. */
const WRITTEN_DATE_LINE = new RegExp(
  String.raw`^(?:(?:(?:last|originally)\s+)?(?:updated|published|posted|modified|reviewed|released)(?:\s+(?:on|at))?|date|post(?:ed)? (?:date|time)|on)?[\s:|·•—–-]*${WRITTEN_DATE}[\s.|·•]*$`,
  'iu',
);
/** Headings that are dates head a diary's or a changelog's entries when there are at least this many. */
const DATED_SECTIONS_MIN = 2;

/**
 * Whether `element` (of text `text`) is a date line: a `<time>` and at most a label, or a date written out alone or
 * after a label (the post's date in a plain paragraph or span). `datedHeadings` counts the content's headings that
 * are a date alone: two or more are the entries of a diary or a changelog, the article's own.
 */
function isDateLine(element: DomElement, text: string, datedHeadings: number): boolean {
  if (text.length > DATE_LINE_MAX) return false;
  const times = element.querySelectorAll('time');
  if (times.length === 0) return WRITTEN_DATE_LINE.test(text) && !(HEADING_TAGS.has(tagOf(element)) && datedHeadings >= DATED_SECTIONS_MIN) && !datesAnEntry(element, text);
  let rest = text;
  for (const time of times) rest = rest.replace(normalisedText(time), ' ');
  return DATE_LABEL.test(rest.trim());
}

const HEADING_TAGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * Whether a written-out date is an entry's own: it shares its list item or table cell with more text (an event's
 * name in a programme, a milestone in a timeline), where a post's date stands alone.
 */
function datesAnEntry(element: DomElement, text: string): boolean {
  const entry = element.closest('li, td, th, dd, dt');
  return entry !== null && entry !== element && normalisedLength(entry) > text.length;
}

/** How many of `blocks` are headings whose text is a date written out. */
function datedHeadingCount(blocks: readonly DomElement[]): number {
  let count = 0;
  for (const block of blocks) if (HEADING_TAGS.has(tagOf(block)) && WRITTEN_DATE_LINE.test(normalisedText(block))) count++;
  return count;
}

/** The kind of publisher's line `text` is, or null for the article's own text. */
export function publisherLineKind(text: string): PublisherLineKind | null {
  if (text.length > LINE_MAX) return null;
  if (text.length <= READING_TIME_MAX && READING_TIME.test(text)) return 'reading-time';
  if (text.length <= CONTROL_LABEL_MAX && CONTROL_LABEL.test(text)) return 'control';
  if (TAG_LINE.test(text)) return 'tags';
  // Each kind's word first: a plain search is cheap beside the kind's pattern, and most blocks have none.
  if (NEWSLETTER_WORD.test(text) && SIGN_UP_CALL.test(text) && !GENERAL_SUBSCRIBING.test(text)) return 'sign-up';
  // An author's closing paragraph that ends by pointing to their accounts is theirs: the call opens the line or
  // is most of it.
  if (NETWORK_WORD.test(text) && FOLLOW_CALL.test(text) && (FOLLOW_CALL.test(firstSentence(text)) || sentences(text).length <= FOLLOW_MAX_SENTENCES)) return 'follow';
  if (/comment|reply/i.test(text) && COMMENT_NOTE.test(text)) return 'comments';
  if (/subscri|unlock|member/i.test(text) && PAYWALL_NOTE.test(text)) return 'paywall';
  return null;
}

/**
 * Removes the publisher's lines inside `root` (in place): the outermost block holding no other block whose text is
 * one. `spared` elements (a thread's posts: a member's own words) stay.
 */
export function removePublisherLines(root: DomElement, spared: (element: DomElement) => boolean = () => false): void {
  // A content of a few lines is all the page has: whatever they say, they are what a reader came for. (Its raw
  // text, whitespace uncollapsed, is never shorter: only a short one needs collapsing to tell.)
  const raw = (root.textContent ?? '').length;
  if (raw < MIN_CONTENT || (raw < MIN_CONTENT * RAW_SLACK && normalisedLength(root) < MIN_CONTENT)) return;
  // `written`: a date line without a `<time>`.
  const lines: { element: DomElement; kind: PublisherLineKind; written: boolean }[] = [];
  const found = new Set<DomElement>();
  const blocks = lineBlocks(root);
  const datedHeadings = datedHeadingCount(blocks);
  // In page order, so that a line's outermost block is judged before the emphasis inside it.
  for (const element of blocks) {
    // The outermost block only: a call set in a paragraph is one line, not its paragraph and its emphasis.
    if (hasAncestorIn(element, found)) continue;
    const text = normalisedText(element);
    const kind = publisherLineKind(text) ?? (isDateLine(element, text, datedHeadings) ? 'date' : null);
    if (kind === null || spared(element) || isWordsOfASentence(element)) continue;
    lines.push({ element, kind, written: kind === 'date' && element.querySelector('time') === null });
    found.add(element);
  }
  // An article shows its reading time once or twice (header, footer); a listing shows one a teaser, part of what
  // it lists.
  const readingTimes = lines.filter((line) => line.kind === 'reading-time').length;
  // So with a date written out: more are a listing's entries' dates or a thread's posts' (a `<time>` is marked up as
  // the page's own date).
  const writtenDates = lines.filter((line) => line.written).length;
  for (const { element, kind, written } of lines) {
    if (kind === 'reading-time' && readingTimes > MAX_READING_TIMES) continue;
    if (written && writtenDates > MAX_WRITTEN_DATES) continue;
    element.remove();
  }
}

/** The elements that may be a line. */
const LINE_TAGS = new Set(['p', 'div', 'li', 'h2', 'h3', 'h4', 'h5', 'h6', 'span', 'small', 'em', 'strong', 'a', 'button']);
/** The elements that make the one around them no line. */
const INNER_BLOCK_TAGS = new Set(['p', 'div', 'li', 'ul', 'ol', 'dl', 'table', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre']);
/** Quoted or code text is someone else's words or a program's: never a publisher's line. */
const QUOTED_TAGS = new Set(['pre', 'code', 'blockquote']);

/**
 * The blocks of `root` that may be a line, in page order: a block holding no other block, outside quotes and code.
 * One walk over the tree; asking each element for a block inside it would walk its subtree again.
 */
function lineBlocks(root: DomElement): DomElement[] {
  const blocks: (DomElement | null)[] = [];
  /** Walks `element`'s children: whether a block lies among them or under them, and their raw text length. */
  const visit = (element: DomElement): { blockInside: boolean; length: number } => {
    let blockInside = false;
    let length = 0;
    for (let child = element.firstChild; child !== null; child = child.nextSibling) {
      if (!isElement(child)) {
        if (isText(child)) length += (child.textContent ?? '').length;
        continue;
      }
      const tag = tagOf(child);
      if (QUOTED_TAGS.has(tag)) {
        blockInside ||= INNER_BLOCK_TAGS.has(tag);
        length += (child.textContent ?? '').length;
        continue;
      }
      const at = blocks.length;
      if (LINE_TAGS.has(tag)) blocks.push(child);
      const inside = visit(child);
      // A block around another, or longer than any line even with its whitespace collapsed, is no line.
      if (LINE_TAGS.has(tag) && (inside.blockInside || inside.length > LINE_MAX * RAW_SLACK)) blocks[at] = null;
      blockInside ||= inside.blockInside || INNER_BLOCK_TAGS.has(tag);
      length += inside.length;
    }
    return { blockInside, length };
  };
  visit(root);
  return blocks.filter((block) => block !== null);
}

function hasAncestorIn(element: DomElement, elements: ReadonlySet<DomElement>): boolean {
  for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) if (elements.has(parent)) return true;
  return false;
}
