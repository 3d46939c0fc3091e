/**
 * The HTML tables of a Markdown text, as opendataloader-bench's table evaluator finds and reads them: BeautifulSoup
 * (`html.parser`) lists every `<table>` element in document order, nested ones included, and lxml parses each one
 * again. This is a small tolerant parser that gives the same trees on the HTML that Markdown writers emit:
 * - tags and attribute names lower-cased; `<!-- -->`, `<!…>` and `<?…>` dropped; `<script>`/`<style>` raw text;
 * - void elements (`br`, `img`, …) and `<x/>` are empty elements;
 * - an end tag closes up to the most recent open element of its name, and is ignored when none is open;
 * - as lxml's parser does inside tables, `<td>`/`<th>` closes an open cell, `<tr>` an open cell and row;
 * - character references decoded (numeric and the common named ones).
 * Malformed markup beyond that (misnested inline tags, stray `</td>` outside a table) may build a different tree
 * than BeautifulSoup + lxml would.
 */
import { pyHtmlUnescape } from './python-text.js';

export interface HtmlElement {
  tag: string;
  attributes: Map<string, string>;
  children: HtmlNode[];
}
export type HtmlNode = HtmlElement | string;

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const RAW_TEXT = new Set(['script', 'style']);
/** What an opening tag closes when it is the current element (lxml's auto-close rules for table parts). */
const CLOSES: Record<string, Set<string>> = {
  td: new Set(['td', 'th']),
  th: new Set(['td', 'th']),
  tr: new Set(['td', 'th', 'tr']),
};

const START_TAG = /^<([a-zA-Z][^\t\n\r\f />]*)/;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

function element(tag: string): HtmlElement {
  return { tag, attributes: new Map(), children: [] };
}

/** Parses `html` into a tree under a `#document` element. */
export function parseHtml(html: string): HtmlElement {
  const root = element('#document');
  const stack: HtmlElement[] = [root];
  const current = () => stack[stack.length - 1] as HtmlElement;
  const addText = (text: string) => {
    if (!text) return;
    const children = current().children;
    const last = children[children.length - 1];
    if (typeof last === 'string') children[children.length - 1] = last + text;
    else children.push(text);
  };

  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      addText(pyHtmlUnescape(html.slice(i)));
      break;
    }
    if (lt > i) addText(pyHtmlUnescape(html.slice(i, lt)));
    i = lt;
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    if (html.startsWith('<!', i) || html.startsWith('<?', i)) {
      const end = html.indexOf('>', i + 2);
      i = end < 0 ? html.length : end + 1;
      continue;
    }
    const endTag = /^<\/([a-zA-Z][^\t\n\r\f />]*)[^>]*>/.exec(html.slice(i, i + 200));
    if (endTag) {
      const tag = (endTag[1] as string).toLowerCase();
      for (let k = stack.length - 1; k > 0; k--) {
        if ((stack[k] as HtmlElement).tag === tag) {
          stack.length = k;
          break;
        }
      }
      i += endTag[0].length;
      continue;
    }
    const start = START_TAG.exec(html.slice(i, i + 200));
    const close = start ? html.indexOf('>', i) : -1;
    if (!start || close < 0) {
      addText('<');
      i++;
      continue;
    }
    const tag = (start[1] as string).toLowerCase();
    const node = element(tag);
    const inside = html.slice(i + start[0].length, close);
    const selfClosing = inside.endsWith('/');
    for (const [, name, doubleQuoted, singleQuoted, bare] of inside.matchAll(ATTRIBUTE)) {
      const value = doubleQuoted ?? singleQuoted ?? bare ?? '';
      if (name && !node.attributes.has(name.toLowerCase())) node.attributes.set(name.toLowerCase(), pyHtmlUnescape(value));
    }
    i = close + 1;
    const closes = CLOSES[tag];
    while (closes && stack.length > 1 && closes.has(current().tag)) stack.pop();
    current().children.push(node);
    if (VOID.has(tag) || selfClosing) continue;
    if (RAW_TEXT.has(tag)) {
      const end = html.toLowerCase().indexOf(`</${tag}`, i);
      const stop = end < 0 ? html.length : end;
      if (stop > i) node.children.push(html.slice(i, stop));
      i = stop;
      continue;
    }
    stack.push(node);
  }
  return root;
}

/** Every `table` element, in document order (an outer table before the tables nested in it). */
export function findTables(root: HtmlElement): HtmlElement[] {
  const tables: HtmlElement[] = [];
  const walk = (node: HtmlElement) => {
    if (node.tag === 'table') tables.push(node);
    for (const child of node.children) if (typeof child !== 'string') walk(child);
  };
  walk(root);
  return tables;
}
