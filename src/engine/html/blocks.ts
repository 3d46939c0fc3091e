/**
 * The cleaned body split into the model's blocks, in document order, covering all of its content (the renderer
 * joins block Markdown into the document Markdown, so nothing may fall between blocks).
 *
 * Containers (div, section, article, main, header, footer, nav, aside, form, figure, layout tables...) are walked
 * into; the elements below become one block each, their Markdown being turndown's for that element:
 *
 * | element | block |
 * |---|---|
 * | first h1 | `title` |
 * | other h1..h6 | `section_header`, label `heading-N` |
 * | p, address, a div or other container holding only inline content, a run of inline content between blocks | `text` |
 * | ul, ol, dl | `text`, label `list` |
 * | blockquote | `text`, label `quote` |
 * | pre | `text`, label `code` |
 * | table (data) | `table`; its `<caption>` becomes a `caption` block before it |
 * | img, or an inline run made only of images | `figure` |
 * | figcaption, p.caption (Word's Caption style) | `caption` |
 * | a paragraph that is only display math (DOCX equations) | `formula` |
 * | mammoth's footnote list (DOCX) | one `text` block per note, label `footnote`, as `[^N]: text` |
 *
 * Layout tables (tables.ts: isLayoutTable) are walked into like containers. `hr` and empty elements give no block.
 */
import type { ModelBlock } from '../model.js';
import { type DomElement, type DomNode, isElement, isText, normalisedLength, normalisedText, tagOf } from './dom.js';
import { MATH_CLASS, type MarkdownConverter } from './markdown.js';
import { isLayoutTable, rowCells, tableRows, type TableOrigin } from './tables.js';

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const LEAF_BLOCKS = new Set([...HEADINGS, 'p', 'ul', 'ol', 'dl', 'pre', 'blockquote', 'table', 'address', 'figcaption', 'hr', 'menu', 'dir', 'listing', 'xmp', 'plaintext']);
const CONTAINERS = new Set([
  'body', 'div', 'section', 'article', 'main', 'header', 'footer', 'nav', 'aside', 'form', 'fieldset', 'center',
  'details', 'summary', 'hgroup', 'figure', 'search', 'dialog', 'legend', 'li', 'dd', 'dt', 'tbody', 'thead',
  'tfoot', 'tr', 'td', 'th', 'caption', 'object', 'noframes', 'frameset', 'html',
]);
/** Elements that make their ancestors "contain blocks". */
const BLOCK_LEVEL = new Set([...LEAF_BLOCKS, ...CONTAINERS]);

export interface BlockOptions {
  source: string;
  /** Recognise mammoth's footnote list (DOCX path). */
  footnotes: boolean;
  /** Which tables are layout (tables.ts: isLayoutTable); 'web' when not said. */
  tables?: TableOrigin;
}

export function splitBlocks(body: DomElement, markdown: MarkdownConverter, options: BlockOptions): ModelBlock[] {
  const blocks: ModelBlock[] = [];
  const withBlocks = elementsContainingBlocks(body);
  let titleSeen = false;

  const push = (type: ModelBlock['type'], text: string, label: string | null) => {
    if (text.trim() === '') return;
    blocks.push({ type, label, markdown: text, bbox: null, source: options.source });
  };

  const emitInline = (run: DomNode[]) => {
    if (!run.some((node) => (isText(node) ? (node.textContent ?? '').trim() !== '' : true))) return;
    const text = markdown.nodes(run);
    if (text === '') return;
    const onlyImages = run.every((node) => (isText(node) ? (node.textContent ?? '').trim() === '' : isImageOnly(node as DomElement)));
    push(onlyImages ? 'figure' : 'text', text, null);
  };

  const emitLeaf = (element: DomElement) => {
    const tag = tagOf(element);
    if (HEADINGS.has(tag)) {
      if (tag === 'h1' && !titleSeen) {
        titleSeen = true;
        push('title', markdown.element(element), 'heading-1');
      } else {
        push('section_header', markdown.element(element), `heading-${tag.slice(1)}`);
      }
      return;
    }
    switch (tag) {
      case 'hr':
        return;
      case 'ul':
      case 'ol':
      case 'menu':
      case 'dir':
        if (options.footnotes && isFootnoteList(element)) {
          for (const item of element.children) {
            const id = /^(foot|end)note-(\d+)$/.exec(item.getAttribute('id') ?? '');
            if (id === null) continue;
            const text = markdown.nodes([...item.childNodes]).replace(/\n+/g, ' ').trim();
            push('text', `[^${id[1] === 'end' ? 'e' : ''}${id[2]}]: ${text}`, 'footnote');
          }
          return;
        }
        push('text', markdown.element(element), 'list');
        return;
      case 'dl':
        push('text', markdown.element(element), 'list');
        return;
      case 'pre':
      case 'listing':
      case 'xmp':
      case 'plaintext':
        push('text', markdown.element(element), 'code');
        return;
      case 'blockquote':
        push('text', markdown.element(element), 'quote');
        return;
      case 'figcaption':
        push('caption', markdown.element(element), null);
        return;
      case 'table': {
        const caption = [...element.children].find((child) => tagOf(child) === 'caption');
        if (caption !== undefined) push('caption', markdown.nodes([...caption.childNodes]), null);
        push('table', markdown.table(element), null);
        return;
      }
      case 'p':
        if (isDisplayMath(element)) push('formula', markdown.element(element), 'display');
        else if (isImageOnly(element)) push('figure', markdown.element(element), null);
        // Word's Caption style (DOCX path: p.caption).
        else if ((element.getAttribute('class') ?? '').split(/\s+/).includes('caption')) push('caption', markdown.element(element), null);
        else push('text', markdown.element(element), null);
        return;
      default:
        push('text', markdown.element(element), null);
    }
  };

  const walk = (container: DomElement) => {
    let run: DomNode[] = [];
    const flush = () => {
      emitInline(run);
      run = [];
    };
    for (let node = container.firstChild; node !== null; node = node.nextSibling) {
      if (!isElement(node)) {
        if (isText(node)) run.push(node);
        continue;
      }
      const tag = tagOf(node);
      if (tag === 'table') {
        flush();
        if (isLayoutTable(node, options.tables)) walkLayoutTable(node);
        else emitLeaf(node);
      } else if (LEAF_BLOCKS.has(tag)) {
        flush();
        emitLeaf(node);
      } else if (tag === 'img' && run.every((item) => isText(item) && (item.textContent ?? '').trim() === '') && isStandalone(node)) {
        flush();
        push('figure', markdown.element(node), null);
      } else if (CONTAINERS.has(tag) || withBlocks.has(node)) {
        flush();
        if (withBlocks.has(node)) walk(node);
        else if (normalisedLength(node) !== 0 || node.querySelector('img') !== null) {
          const text = markdown.element(node);
          const onlyImages = isImageOnly(node);
          push(onlyImages ? 'figure' : tag === 'figcaption' || tag === 'caption' ? 'caption' : 'text', text, null);
        }
      } else {
        run.push(node);
      }
    }
    flush();
  };

  const walkLayoutTable = (table: DomElement) => {
    for (const { row } of tableRows(table)) {
      for (const cell of rowCells(row)) walk(cell);
    }
  };

  walk(body);
  return blocks;
}

/** Every element that has a block-level element somewhere below it (one post-order pass). */
function elementsContainingBlocks(root: DomElement): Set<DomNode> {
  const result = new Set<DomNode>();
  for (const element of root.querySelectorAll('*')) {
    if (!BLOCK_LEVEL.has(tagOf(element))) continue;
    for (let parent = element.parentNode; parent !== null && parent !== root && !result.has(parent); parent = parent.parentNode) {
      result.add(parent);
    }
  }
  return result;
}

/** An element whose content is images only (and whitespace): an `img`, or a link or span around images. */
function isImageOnly(element: DomElement): boolean {
  if (tagOf(element) === 'img') return true;
  if (element.querySelector('img') === null) return false;
  return normalisedLength(element) === 0;
}

/** An image with nothing but whitespace or other block boundaries after it in its parent. */
function isStandalone(image: DomElement): boolean {
  for (let sibling = image.nextSibling; sibling !== null; sibling = sibling.nextSibling) {
    if (isText(sibling) && (sibling.textContent ?? '').trim() === '') continue;
    if (isElement(sibling) && (LEAF_BLOCKS.has(tagOf(sibling)) || CONTAINERS.has(tagOf(sibling)) || tagOf(sibling) === 'br')) return true;
    return false;
  }
  return true;
}

function isFootnoteList(list: DomElement): boolean {
  const items = [...list.children];
  return items.length > 0 && items.every((item) => /^(foot|end)note-\d+$/.test(item.getAttribute('id') ?? ''));
}

function isDisplayMath(paragraph: DomElement): boolean {
  const math = paragraph.querySelectorAll(`span.${MATH_CLASS}.display`);
  if (math.length === 0) return false;
  let text = normalisedText(paragraph);
  for (const span of math) text = text.replace(normalisedText(span), '');
  return text.trim() === '';
}
