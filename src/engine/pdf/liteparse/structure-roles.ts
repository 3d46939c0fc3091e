/**
 * What a tagged PDF says its text is: the logical structure tree (ISO 32000 §14.7) that Word, LibreOffice,
 * InDesign and accessible exports write, read by LiteParse page by page. Each text item names its marked
 * content (`mcid`); each structure element lists the marked contents it owns. The roles kept are the ones the
 * layout cannot be sure of from the type alone: the document's title, its headings with their levels, and the
 * rest (paragraphs, list items, cells: body text). Pure.
 */

/** A structure element as LiteParse's native module gives it (the fields read here). */
export interface StructureElement {
  /** The structure type (`/S`): `H1`, `P`, `Table`… */
  elementType: string;
  markedContentIds: readonly number[];
  children: readonly StructureElement[];
}

/** The role a tagged text item plays: the title, a heading of level 1–6, or body text. */
export type StructureRole = typeof TITLE_ROLE | 1 | 2 | 3 | 4 | 5 | 6 | typeof BODY_ROLE;
export const TITLE_ROLE = 0;
export const BODY_ROLE = -1;

/** The standard heading types (`H1`…`H6`), and names producers map onto them (`Heading 2`, `heading_3`). */
const NUMBERED_HEADING = /^(?:h|head|heading)[\s_-]*([1-6])$/i;
/** Grouping elements: a generic `H` takes its level from how many of them enclose it (PDF 1.x's usage). */
const SECTION = new Set(['Sect', 'Part', 'Art', 'Chapter']);

function headingRole(type: string, sections: number): StructureRole | undefined {
  if (type === 'Title') return TITLE_ROLE;
  const numbered = NUMBERED_HEADING.exec(type);
  if (numbered) return Number(numbered[1]) as StructureRole;
  if (type === 'H') return Math.min(6, Math.max(1, sections)) as StructureRole;
  return undefined;
}

/** What the structure tree says of one marked content: its role, and which element owns it (numbered in tree order). */
export interface StructureMark {
  role: StructureRole;
  /** The heading element it belongs to, or for body text the innermost element that owns it. */
  element: number;
}

/**
 * Marked content id → its mark, for one page's structure tree; empty when the page is not tagged. Content under a
 * heading element (its spans and links too) is that heading's; any other content the tree owns is body text.
 * An element running over a page break lists its marked contents on both pages, and LiteParse gives them without
 * their page: a paragraph continued from the page before can name the number of a heading's content on this page.
 * A heading's claim wins (a heading rarely runs over a page break; a paragraph often does).
 * The tree's depth is bounded by the walk's own stack, not the call stack (a hostile file may nest deeply).
 */
export function structureRoles(roots: readonly StructureElement[]): Map<number, StructureMark> {
  const marks = new Map<number, StructureMark>();
  const stack: { element: StructureElement; role: StructureRole; heading: number; sections: number }[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ element: roots[i]!, role: BODY_ROLE, heading: -1, sections: 0 });
  let count = 0;
  while (stack.length > 0) {
    const { element, role: inherited, heading: inheritedHeading, sections: around } = stack.pop()!;
    const index = count++;
    const sections = around + (SECTION.has(element.elementType) ? 1 : 0);
    const own = inherited === BODY_ROLE ? headingRole(element.elementType, sections) : undefined;
    const role = own ?? inherited;
    const heading = own !== undefined ? index : inheritedHeading;
    const mark: StructureMark = { role, element: role === BODY_ROLE ? index : heading };
    for (const id of element.markedContentIds) {
      const held = marks.get(id);
      if (held === undefined || (held.role === BODY_ROLE && role !== BODY_ROLE)) marks.set(id, mark);
    }
    for (let i = element.children.length - 1; i >= 0; i--) stack.push({ element: element.children[i]!, role, heading, sections });
  }
  return marks;
}
