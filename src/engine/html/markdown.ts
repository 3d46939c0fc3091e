/**
 * HTML to Markdown with turndown: ATX headings, fenced code, `-` bullets, `*emphasis*`, `**strong**`, GFM
 * strikethrough and task lists (@joplin/turndown-plugin-gfm), and GFM tables from docmill's own table rule
 * (tables.ts), which unlike the plugin's flattens row and column spans into a regular grid, keeps tables whose cells
 * hold lists or nested tables as Markdown tables, and always gives the table a header row.
 *
 * Also: `<pre>` without `<code>` becomes a fenced block with its text exactly (the 460 KB pre page stays one code
 * block); empty links and `javascript:` links keep only their text; definition lists give a bold term; the math
 * and footnote markup the DOCX path produces (`span.docmill-math`, mammoth's `#footnote-N` links) become `$...$`
 * and GFM footnote references.
 */
import { createRequire } from 'node:module';
import TurndownService from 'turndown';
import { type DomElement, type DomNode, isElement } from './dom.js';
import { tableToGfm } from './tables.js';
import { escapeLineStart, escapeRunText } from '../markdown-text.js';

interface GfmPluginModule {
  strikethrough: TurndownService.Plugin;
  taskListItems: TurndownService.Plugin;
  highlightedCodeBlock: TurndownService.Plugin;
}

// The plugin ships CommonJS without types.
const gfmPlugin = createRequire(import.meta.url)('@joplin/turndown-plugin-gfm') as GfmPluginModule;

/** Class of the span the DOCX path writes for an equation; its text is LaTeX. */
export const MATH_CLASS = 'docmill-math';
/** Text of an `<img src>` whose base64 data was removed (the hosted API's placeholder). */
export const BASE64_IMAGE_PLACEHOLDER = '<Base64-Image-Removed>';

export interface MarkdownConverter {
  /** Markdown of the element itself (not only its children). */
  element(element: DomElement): string;
  /** Markdown of a run of sibling nodes (inline content between blocks). */
  nodes(nodes: DomNode[]): string;
  /** The GFM table of a table element (what `element` gives, without turndown converting the cells twice). */
  table(table: DomElement): string;
}

export function createMarkdownConverter(document: { createElement(tag: string): DomElement }): MarkdownConverter {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
    hr: '* * *',
    linkStyle: 'inlined',
  });
  service.use([gfmPlugin.strikethrough, gfmPlugin.taskListItems, gfmPlugin.highlightedCodeBlock]);
  // No-break spaces are layout (form blanks, empty cells): ordinary spaces in Markdown, runs collapsed.
  // Escaped as every format's text is (markdown-text.ts), where turndown escapes every `_`, `[` and leading `-`.
  service.escape = (text: string) => escapeLineStart(escapeRunText(text.replace(/\u00a0+/g, ' ').replace(/ {2,}/g, ' ')));
  service.remove(['svg' as never, 'canvas', 'caption', 'colgroup' as never, 'col' as never]);

  const convert = (wrapper: DomElement): string => tidy(service.turndown(wrapper as never));
  const cellMarkdown = (cell: DomElement): string => {
    const wrapper = document.createElement('div');
    for (let child = cell.firstChild; child !== null; child = child.nextSibling) wrapper.appendChild(child.cloneNode(true));
    return convert(wrapper);
  };

  service.addRule('docmillTable', {
    filter: (node) => (node as DomElement).nodeName === 'TABLE',
    replacement: (_content, node) => {
      const markdown = tableToGfm(node as DomElement, cellMarkdown);
      return markdown === '' ? '' : `\n\n${markdown}\n\n`;
    },
  });

  // An ATX heading is one line: a line break in it (one typed before a title, `<h1><br>Title</h1>`) is a space,
  // else the heading would end there, empty. Its text cannot start a list, so a number opening it
  // (`1. Introduction`, as numbered headings are written) keeps its full stop unescaped, where turndown escapes it as
  // at the start of a paragraph.
  service.addRule('docmillHeading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const level = Number.parseInt((node as DomElement).nodeName.charAt(1), 10);
      const text = content
        .replace(/\s*\n\s*/g, ' ')
        .trim()
        .replace(/^(\d+)\\\./, '$1.');
      return `\n\n${'#'.repeat(level)} ${withoutWholeEmphasis(text)}\n\n`;
    },
  });

  service.addRule('docmillListItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const item = node as DomElement;
      const parent = item.parentNode;
      let prefix = `${options.bulletListMarker ?? '-'} `;
      if (parent !== null && parent.nodeName === 'OL' && isElement(parent)) {
        const start = Number.parseInt(parent.getAttribute('start') ?? '', 10);
        let index = 0;
        for (let sibling = item.previousSibling; sibling !== null; sibling = sibling.previousSibling) {
          if (sibling.nodeName === 'LI') index += 1;
        }
        prefix = `${(Number.isFinite(start) ? start : 1) + index}. `;
      }
      const isParagraph = /\n$/.test(content);
      let body = content.replace(/^\n+/, '').replace(/\n+$/, '') + (isParagraph ? '\n' : '');
      body = body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`);
      return prefix + body + (nextElementSibling(item) !== null ? '\n' : '');
    },
  });

  service.addRule('docmillPre', {
    filter: (node) => (node as DomElement).nodeName === 'PRE',
    replacement: (_content, node) => {
      const pre = node as DomElement;
      const code = pre.firstElementChild?.nodeName === 'CODE' && pre.children.length === 1 ? pre.firstElementChild : pre;
      const className = `${code.getAttribute('class') ?? ''} ${pre.getAttribute('class') ?? ''}`;
      const language = /(?:language|lang)-(\S+)/.exec(className)?.[1] ?? '';
      // The HTML parser drops a newline right after <pre>; linkedom keeps it.
      const text = (code.textContent ?? '').replace(/^\r?\n/, '').replace(/\n$/, '');
      let fenceSize = 3;
      for (const match of text.matchAll(/^`{3,}/gm)) fenceSize = Math.max(fenceSize, match[0].length + 1);
      const fence = '`'.repeat(fenceSize);
      return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
    },
  });

  service.addRule('docmillLink', {
    filter: (node) => (node as DomElement).nodeName === 'A',
    replacement: (content, node) => {
      const link = node as DomElement;
      const href = (link.getAttribute('href') ?? '').trim();
      // mammoth's footnote markup (DOCX path): references become GFM footnote references, back links vanish.
      const note = /^#(foot|end)note-(\d+)$/.exec(href);
      if (note !== null && /^(foot|end)note-ref-/.test(link.getAttribute('id') ?? '')) {
        return `[^${note[1] === 'end' ? 'e' : ''}${note[2]}]`;
      }
      if (/^#(foot|end)note-ref-\d+$/.test(href)) return '';
      // Link text on one line (links wrapping blocks give paragraphs); a link around nothing is dropped.
      const text = content.replace(/\s*\n\s*/g, ' ').trim();
      if (href === '' || /^javascript:/i.test(href)) return content;
      if (text === '') return '';
      const destination = escapeDestination(href);
      const title = (link.getAttribute('title') ?? '').replace(/\s+/g, ' ').trim().replace(/"/g, '\\"');
      return `[${text}](${destination}${title ? ` "${title}"` : ''})`;
    },
  });

  service.addRule('docmillImage', {
    filter: 'img',
    replacement: (_content, node) => {
      const image = node as DomElement;
      const src = (image.getAttribute('src') ?? '').trim();
      if (src === '') return '';
      const alt = service.escape((image.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim());
      const title = (image.getAttribute('title') ?? '').replace(/\s+/g, ' ').trim().replace(/"/g, '\\"');
      const destination = src === BASE64_IMAGE_PLACEHOLDER ? src : escapeDestination(src);
      return `![${alt}](${destination}${title ? ` "${title}"` : ''})`;
    },
  });

  service.addRule('docmillMath', {
    filter: (node) => (node as DomElement).nodeName === 'SPAN' && hasClass(node as DomElement, MATH_CLASS),
    replacement: (_content, node) => {
      const span = node as DomElement;
      const latex = (span.textContent ?? '').trim();
      if (latex === '') return '';
      return hasClass(span, 'display') ? `\n\n$$${latex}$$\n\n` : `$${latex}$`;
    },
  });

  service.addRule('docmillDefinitionTerm', {
    filter: 'dt',
    replacement: (content) => {
      const text = content.trim();
      return text === '' ? '' : `\n\n**${text}**\n\n`;
    },
  });

  service.addRule('docmillDefinition', {
    filter: 'dd',
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });

  return {
    element(element: DomElement): string {
      const wrapper = document.createElement('div');
      wrapper.appendChild(element.cloneNode(true));
      return convert(wrapper);
    },
    nodes(nodes: DomNode[]): string {
      const wrapper = document.createElement('div');
      for (const node of nodes) wrapper.appendChild(node.cloneNode(true));
      return convert(wrapper);
    },
    table(table: DomElement): string {
      return tableToGfm(table, cellMarkdown);
    },
  };
}

/**
 * Trailing spaces and runs of blank lines out of turndown's output, outside fenced code blocks (whose content is
 * kept exactly). The two-space hard break turndown writes for `<br>` inside a paragraph is kept.
 */
export function tidy(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  let lastWasCode = false;
  // A hard break right before a blank line (or the end) means nothing.
  const dropTrailingBreak = () => {
    const last = out.length - 1;
    if (last >= 0 && !lastWasCode) out[last] = (out[last] as string).replace(/\s+$/, '');
  };
  for (const line of markdown.split('\n')) {
    if (fence !== null) {
      out.push(line);
      lastWasCode = true;
      if (line.trim() === fence) {
        fence = null;
        lastWasCode = false;
      }
      continue;
    }
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (opening?.[1] !== undefined) {
      fence = opening[1];
      out.push(line.replace(/\s+$/, ''));
      lastWasCode = true;
      continue;
    }
    if (line.trim() === '') {
      dropTrailingBreak();
      if (out.length > 0 && out[out.length - 1] !== '') out.push('');
      lastWasCode = false;
      continue;
    }
    out.push(/\S {2}$/.test(line) ? line : line.replace(/\s+$/, ''));
    lastWasCode = false;
  }
  dropTrailingBreak();
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  if (out.length > 0 && !/^\s*(`{3,}|~{3,})/.test(out[0] as string)) out[0] = (out[0] as string).replace(/^\s+/, '');
  return out.join('\n');
}

/** A link destination: as is when CommonMark accepts it bare (balanced parentheses allowed), else in `<...>`. */
function escapeDestination(url: string): string {
  let depth = 0;
  let balanced = true;
  for (const char of url) {
    if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    if (depth < 0) balanced = false;
  }
  if (!/[\s<>]/.test(url) && balanced && depth === 0) return url;
  return `<${url.replace(/[<>]/g, (char) => encodeURIComponent(char)).replace(/\s/g, '%20')}>`;
}

function hasClass(element: DomElement, name: string): boolean {
  return (element.getAttribute('class') ?? '').split(/\s+/).includes(name);
}

function nextElementSibling(node: DomNode): DomNode | null {
  for (let sibling = node.nextSibling; sibling !== null; sibling = sibling.nextSibling) {
    if (isElement(sibling)) return sibling;
    if ((sibling.textContent ?? '').trim() !== '') return sibling;
  }
  return null;
}

/**
 * A heading's text without emphasis around the whole of it: a heading set in bold (Word's headings often carry
 * their own `w:b`, a web page's `<h2><strong>`) is a heading already, and `## **Results**` reads worse in the
 * outline and the chunks' titles.
 */
function withoutWholeEmphasis(text: string): string {
  const whole = /^(\*{1,3})(?=\S)(.*\S)\1$/.exec(text);
  if (whole === null) return text;
  const inner = whole[2] as string;
  // `**a** and **b**` is emphasis twice, not once around the whole.
  return inner.includes(whole[1] as string) ? text : inner;
}
