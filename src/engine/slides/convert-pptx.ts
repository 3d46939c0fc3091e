/**
 * PowerPoint decks (.pptx, and .pptm: the same package, its macros ignored) → DocumentModel, one page per slide.
 *
 * Slides come in presentation order (`p:sldIdLst` in ppt/presentation.xml through its relationships, never by
 * file name); `pageNumber` is the slide's position. Hidden slides (`show="0"`) are kept and marked (see
 * render-slide.ts), with a warning naming them. Each slide reads its shapes (pptx/shapes.ts), its layout and
 * master for inherited positions, list styles and decoration, its notes slide and its comments; render-slide.ts
 * makes the blocks. Metadata: docProps/core.xml (title, author...; the first slide title found when the package
 * has none) and numPages.
 *
 * Errors: what the sniffer says of the package (package.ts): an encrypted deck (OLE container with
 * EncryptionInfo) is ENCRYPTED_DOCUMENT; no document, a zip cut short or without ppt/presentation.xml is
 * CORRUPT_DOCUMENT; another document type is UNSUPPORTED_FILE; a package crossing the zip limits is
 * DOCUMENT_TOO_COMPLEX. Then: no readable slide part is CORRUPT_DOCUMENT (one unreadable slide among others is a
 * failed page with a warning); a deck with no slides is EMPTY_DOCUMENT (slides without any text give a result
 * with a warning instead); too many slides, shapes or table cells are DOCUMENT_TOO_COMPLEX.
 */
import { coreMetadata, parseRelationships, type Relationship } from '../docx/package.js';
import type { ZipArchive } from '../bytes/zip.js';
import { EngineError } from '../engine-error.js';
import { packageImageUri } from '../package-images.js';
import type { ConvertInput, Converter, DocumentModel, MetadataValue, ModelPage } from '../model.js';
import { DeckBudget, MAX_SLIDES, openDeck, readDeckParts, tooComplex } from './package.js';
import { type ChartData, readChart } from './pptx/chart.js';
import { commentAuthors, readComments } from './pptx/comments.js';
import { decorationItems, notesParagraphs, readSlideShapes } from './pptx/shapes.js';
import type { TextContext } from './pptx/text.js';
import { hiddenSlidesWarning, renderSlide, textlessDeckWarning } from './render-slide.js';
import type { Slide } from './slide-model.js';
import { enterStage } from '../stage.js';
import { attr, child, elements, parseXml, type XmlElement } from './xml.js';

const POINTS_PER_EMU = 1 / 12_700;

export const convertPptx: Converter = async (input) => convert(input);

function convert(input: ConvertInput): DocumentModel {
  const zip = openDeck(input, 'pptx');
  const parts = readDeckParts(zip, isWantedPart);
  const keepImages = input.options.removeBase64Images === false;
  const deck = new PartCache(parts);

  const mainPart = parseRelationships(parts.get('_rels/.rels'), '').find((relationship) => relationship.kind === 'officeDocument')?.target ?? 'ppt/presentation.xml';
  const presentation = deck.xml(mainPart);
  if (presentation === undefined) throw new EngineError('CORRUPT_DOCUMENT', `the presentation part (${mainPart}) is missing or is not readable XML`);
  const presentationRels = deck.relationships(mainPart);

  const slideIds = elements(child(presentation, 'sldIdLst'), 'sldId');
  if (slideIds.length === 0) throw new EngineError('EMPTY_DOCUMENT', 'the presentation has no slides');
  if (slideIds.length > MAX_SLIDES) throw tooComplex(`it has ${slideIds.length.toLocaleString('en-US')} slides (at most ${MAX_SLIDES.toLocaleString('en-US')})`);

  const size = child(presentation, 'sldSz');
  const width = positive(attr(size, 'cx'));
  const height = positive(attr(size, 'cy'));
  const authors = commentAuthors(
    ...presentationRels
      .filter((relationship) => relationship.kind === 'commentAuthors' || relationship.kind === 'authors')
      .map((relationship) => deck.xml(relationship.target)),
  );

  const pages: ModelPage[] = [];
  const budget = new DeckBudget();
  const warnings: string[] = [];
  const hidden: number[] = [];
  let firstTitle: string | null = null;
  slideIds.forEach((slideId, index) => {
    const number = index + 1;
    enterStage(`reading slide ${number}`);
    const target = presentationRels.find((relationship) => relationship.id === attr(slideId, 'r:id'))?.target;
    const root = target === undefined ? undefined : deck.xml(target);
    if (target === undefined || root === undefined) {
      warnings.push(`slide ${number} cannot be read (its part ${target ?? '(no relationship)'} is missing or damaged).`);
      pages.push({ pageNumber: number, width: null, height: null, status: 'failed', blocks: [] });
      return;
    }
    const slide = readSlide(deck, target, root, { number, width, height, authors, budget, zip: keepImages ? zip : null });
    if (slide.hidden) hidden.push(number);
    if (firstTitle === null && slide.title !== null) firstTitle = slide.title.text;
    pages.push(renderSlide(slide, { source: 'pptx', pointsPerUnit: POINTS_PER_EMU }));
  });

  if (pages.every((page) => page.status === 'failed')) {
    throw new EngineError('CORRUPT_DOCUMENT', `none of the presentation's ${pages.length} slides can be read (their parts are missing or damaged)`);
  }
  if (hidden.length > 0) warnings.push(hiddenSlidesWarning(hidden));
  const textless = textlessDeckWarning(pages);
  if (textless !== undefined) warnings.push(textless);

  const metadata: Record<string, MetadataValue> = { ...coreMetadata(parts.get('docProps/core.xml')) };
  if (metadata['title'] === undefined && firstTitle !== null) metadata['title'] = firstTitle;
  metadata['numPages'] = slideIds.length;
  const model: DocumentModel = { pages, metadata };
  if (warnings.length > 0) model.warnings = warnings;
  return model;
}

interface SlideFacts {
  number: number;
  width: number | null;
  height: number | null;
  authors: ReadonlyMap<string, string>;
  budget: DeckBudget;
  /** The package to read pictures from, when the result keeps them. */
  zip: ZipArchive | null;
}

function readSlide(deck: PartCache, part: string, root: XmlElement, facts: SlideFacts): Slide {
  const relationships = deck.relationships(part);
  const related = (kind: string) => relationships.find((relationship) => relationship.kind === kind && !relationship.external)?.target;
  const layoutPart = related('slideLayout');
  const layout = layoutPart === undefined ? undefined : deck.xml(layoutPart);
  const masterPart = layoutPart === undefined ? undefined : deck.relationships(layoutPart).find((relationship) => relationship.kind === 'slideMaster')?.target;
  const master = masterPart === undefined ? undefined : deck.xml(masterPart);

  const chart = (id: string): ChartData | null => {
    const chartPart = relationships.find((relationship) => relationship.id === id && !relationship.external)?.target;
    const chartRoot = chartPart === undefined ? undefined : deck.xml(chartPart);
    if (chartPart === undefined || chartRoot === undefined) return null;
    return readChart(chartRoot, { listStyles: [], relationships: deck.relationships(chartPart), slideNumber: facts.number });
  };
  const diagram = (id: string): XmlElement | undefined => {
    const dataPart = relationships.find((relationship) => relationship.id === id && !relationship.external)?.target;
    return dataPart === undefined ? undefined : deck.xml(dataPart);
  };
  const image = (id: string): string | null => {
    const mediaPart = relationships.find((relationship) => relationship.id === id && !relationship.external)?.target;
    return facts.zip === null || mediaPart === undefined ? null : packageImageUri(facts.zip, mediaPart);
  };
  const shapes = readSlideShapes(root, { slideNumber: facts.number, relationships, layout, master, chart, diagram, image, budget: facts.budget });

  const plainContext: TextContext = { listStyles: [], relationships, slideNumber: facts.number };
  const items = [...shapes.items];
  if (attr(root, 'showMasterSp') !== '0') {
    items.push(...decorationItems(layout, facts.height, plainContext, facts.budget));
    if (attr(layout, 'showMasterSp') !== '0') items.push(...decorationItems(master, facts.height, plainContext, facts.budget));
  }

  const notesPart = related('notesSlide');
  const notes = notesPart === undefined ? [] : notesParagraphs(deck.xml(notesPart), { ...plainContext, relationships: deck.relationships(notesPart) }, facts.budget);
  const comments = relationships
    .filter((relationship) => relationship.kind === 'comments' && !relationship.external)
    .flatMap((relationship) => readComments(deck.xml(relationship.target), facts.authors, plainContext, facts.budget));

  return {
    number: facts.number,
    hidden: attr(root, 'show') === '0' || attr(root, 'show') === 'false',
    width: facts.width,
    height: facts.height,
    title: shapes.title,
    items,
    notes,
    comments,
  };
}

/** The package's XML parts, parsed once each; relationships resolved against their source part. */
class PartCache {
  private readonly parsed = new Map<string, XmlElement | undefined>();
  private readonly rels = new Map<string, Relationship[]>();

  constructor(private readonly parts: ReadonlyMap<string, string>) {}

  xml(name: string): XmlElement | undefined {
    if (!this.parsed.has(name)) {
      const text = this.parts.get(name) ?? this.parts.get(safeDecode(name));
      this.parsed.set(name, text === undefined ? undefined : (parseXml(text) ?? undefined));
    }
    return this.parsed.get(name);
  }

  relationships(part: string): Relationship[] {
    let list = this.rels.get(part);
    if (list === undefined) {
      const slash = part.lastIndexOf('/');
      const relsName = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
      list = parseRelationships(this.parts.get(relsName), part);
      this.rels.set(part, list);
    }
    return list;
  }
}

/** XML and relationship parts of the deck and its properties; never media, fonts or embedded files. */
function isWantedPart(name: string): boolean {
  if (name === '_rels/.rels' || name === 'docProps/core.xml') return true;
  if (!name.startsWith('ppt/')) return false;
  if (/^ppt\/(?:media|embeddings|fonts|theme|printerSettings|customXml)\//.test(name)) return false;
  return name.endsWith('.xml') || name.endsWith('.rels');
}

function positive(value: string | undefined): number | null {
  const parsed = Number(value ?? 'NaN');
  return Number.isFinite(parsed) && parsed > 0 ? parsed : null;
}

function safeDecode(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}


