// An .xlsx read as a stream, in bounded memory: each worksheet's XML is inflated and parsed piece by piece (twice: a
// pass measures its table, a second writes it; markdown-table.ts), so what a workbook costs is its shared strings and
// its markdown, never a cell object per cell (SheetJS held about 7 bytes of memory per byte of sheet XML). What a cell
// reads as follows SheetJS's `sheet_to_json(…, {raw: false, defval: '', blankrows: false})`, which this replaced: the
// cell's text formatted by its number format (SheetJS's formatter, SSF), error cells empty, rows with no value left
// out, the columns of the sheet's <dimension> (else those its cells span).
import type * as Sheets from '@e965/xlsx';
import { strToU8, zipSync } from 'fflate';
import { Parser } from 'htmlparser2';
import { DocumentError, type DocumentPage } from '../types';
import { formatBytes } from '../limits';
import { entryStream, readZip } from '../zip';
import { loadOptional } from '../../config/optional-package';
import { MarkdownTable } from './markdown-table';

/** A workbook's text past this many characters is refused: a few shared strings repeated in many cells could make
 *  a small file read as gigabytes. */
/** SheetJS, for its number formats: an optional package of the core, loaded by the first parseXlsx. */
let XLSX: typeof Sheets;

export const WORKBOOK_TEXT_MAX_CHARS = 128 * 1024 * 1024;

const CORE = 'docProps/core.xml';
const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';

interface Range {
  s: { r: number; c: number };
  e: { r: number; c: number };
}

interface Cell {
  col: number;
  text: string;
  /** Counts for the row (sheet_to_json's blankrows: false): every cell but an error. */
  value: boolean;
}

interface Workbook {
  sheets: { name: string; part?: string }[];
  sharedStrings?: string;
  styles?: string;
  date1904: boolean;
}

/** Whether the archive is an .xlsx this reader takes (not the binary .xlsb, which SheetJS reads). */
export function isXmlWorkbook(parts: ReadonlySet<string>): boolean {
  return parts.has(WORKBOOK);
}

export async function parseXlsx(
  bytes: Uint8Array,
  name: string,
  maxUnzipped: number,
  maxChars = WORKBOOK_TEXT_MAX_CHARS,
): Promise<{ title?: string; pages: DocumentPage[] }> {
  XLSX = await loadOptional('@e965/xlsx', 'Reading spreadsheets', () => import('@e965/xlsx'));
  // Every part is inflated once to be measured against the zip-bomb limits; only the small ones are kept.
  const small = readZip(bytes, name, {
    maxTotal: maxUnzipped,
    keep: (p) => p === CORE || p === WORKBOOK || p === WORKBOOK_RELS,
  });
  const text = (part: string) => new TextDecoder().decode(small.get(part) ?? new Uint8Array());
  const book = readWorkbook(text(WORKBOOK), text(WORKBOOK_RELS));
  const styles = book.styles
    ? await readStyles(bytes, name, book.styles)
    : { formats: new Map<number, string>(), xfs: [] };
  const strings = book.sharedStrings ? await readSharedStrings(bytes, name, book.sharedStrings) : [];
  const format = cellFormatter(styles, book.date1904);
  let chars = 0;
  const sink = {
    push(paragraph: string): number {
      chars += paragraph.length;
      if (chars > maxChars)
        throw new DocumentError(
          `${name} was refused: its cells read as more than ${formatBytes(maxChars)} of text.`,
          'too-large',
        );
      return paragraphs.push(paragraph);
    },
  };
  let paragraphs: string[] = [];
  const pages: DocumentPage[] = [];
  for (const sheet of book.sheets) {
    paragraphs = [`## ${sheet.name}`];
    chars += paragraphs[0]!.length;
    pages.push({ page: pages.length + 1, paragraphs });
    const part = sheet.part;
    if (!part) continue;
    const scan = (onRow: (row: number, cells: Cell[]) => void, onDimension?: (range: Range) => void) =>
      scanSheet(bytes, name, part, { strings, format, date1904: book.date1904 }, onRow, onDimension);
    // First pass: the table's range, and its shape (as markdown-table.ts's TableShape measures it) in sheet columns, since the range's
    // first column is known only at the end when the sheet has no <dimension>.
    let range: Range | undefined;
    let seen = 0;
    let rows = 0;
    let lastCol = -1;
    const spanned = await scan(
      (row, cells) => {
        const kept = cellsOfRow(cells, row, range);
        if (!kept) return;
        seen++;
        let last = -1;
        for (const cell of kept) if (cell.col > last && cell.text.trim()) last = cell.col;
        if (last < 0) return;
        rows = seen;
        if (last > lastCol) lastCol = last;
      },
      (dimension) => (range = dimension),
    );
    const bounds = range ?? spanned;
    if (!bounds || !rows) continue;
    // Second pass: the table.
    const width = lastCol - bounds.s.c + 1;
    const table = new MarkdownTable({ width, rows }, sink);
    await scan((row, cells) => {
      const kept = cellsOfRow(cells, row, bounds);
      if (!kept) return;
      const out = new Array<string>(width).fill('');
      for (const cell of kept) if (cell.col - bounds.s.c < width) out[cell.col - bounds.s.c] = cell.text;
      table.add(out);
    });
    table.end();
  }
  const title = readTitle(text(CORE));
  return title ? { title, pages } : { pages };
}

/** The cells of a row sheet_to_json keeps (inside the range), or undefined when it leaves the row out. */
function cellsOfRow(cells: Cell[], row: number, range: Range | undefined): Cell[] | undefined {
  if (range && (row < range.s.r || row > range.e.r)) return undefined;
  const inside = range ? cells.filter((c) => c.col >= range.s.c && c.col <= range.e.c) : cells;
  return inside.some((c) => c.value) ? inside : undefined;
}

/** The local name of an element (`x:row` is a row). */
function local(tag: string): string {
  const colon = tag.indexOf(':');
  return colon < 0 ? tag : tag.slice(colon + 1);
}

/** Parses an entry of the archive as XML, as it inflates; false when there is no such entry. */
async function parseEntry(
  bytes: Uint8Array,
  name: string,
  entry: string,
  handlers: {
    open?(tag: string, attribs: Record<string, string>): void;
    text?(text: string): void;
    close?(tag: string): void;
  },
): Promise<boolean> {
  const stream = entryStream(bytes, name, entry);
  if (!stream) return false;
  const parser = new Parser(
    {
      onopentag: (tag, attribs) => handlers.open?.(local(tag), attribs),
      ontext: (text) => handlers.text?.(text),
      onclosetag: (tag) => handlers.close?.(local(tag)),
    },
    { xmlMode: true },
  );
  const decoder = new TextDecoder();
  for await (const chunk of stream) parser.write(decoder.decode(chunk, { stream: true }));
  parser.end(decoder.decode());
  return true;
}

/** Text as SheetJS unescapes it: the `_xHHHH_` escapes of OOXML, and "\r\n" as "\n" (entities the parser decoded). */
function xlsxText(text: string): string {
  return text
    .replace(/_x([\da-fA-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\r\n/g, '\n');
}

/** The sheets in workbook order with their parts, and where the shared strings and styles are. */
function readWorkbook(workbook: string, rels: string): Workbook {
  const targets = new Map<string, { type: string; target: string }>();
  const relParser = new Parser(
    {
      onopentag(tag, a) {
        if (local(tag) === 'Relationship' && a.Id && a.Target)
          targets.set(a.Id, { type: a.Type ?? '', target: partPath(a.Target) });
      },
    },
    { xmlMode: true },
  );
  relParser.end(rels);
  const book: Workbook = { sheets: [], date1904: false };
  for (const { type, target } of targets.values()) {
    if (type.endsWith('/sharedStrings')) book.sharedStrings = target;
    else if (type.endsWith('/styles')) book.styles = target;
  }
  const parser = new Parser(
    {
      onopentag(tag, a) {
        const name = local(tag);
        if (name === 'workbookPr') book.date1904 = a.date1904 === '1' || a.date1904 === 'true';
        if (name !== 'sheet') return;
        const id = Object.entries(a).find(([k]) => local(k) === 'id' && k.includes(':'))?.[1];
        const rel = id ? targets.get(id) : undefined;
        // Only worksheets have cells; a chart sheet or a dialog sheet is its name alone.
        const part = rel && rel.type.endsWith('/worksheet') ? rel.target : undefined;
        book.sheets.push({ name: a.name ?? '', part });
      },
    },
    { xmlMode: true },
  );
  parser.end(workbook);
  return book;
}

/** A relationship's target as a path in the archive (relative to xl/, or absolute). */
function partPath(target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : `xl/${target}`).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p && p !== '.') out.push(p);
  }
  return out.join('/');
}

/** The number format id of each cell style (cellXfs), and the workbook's own formats by id. */
interface Styles {
  formats: Map<number, string>;
  xfs: number[];
}

async function readStyles(bytes: Uint8Array, name: string, part: string): Promise<Styles> {
  const formats = new Map<number, string>();
  const xfs: number[] = [];
  let inCellXfs = false;
  await parseEntry(bytes, name, part, {
    open(tag, a) {
      if (tag === 'numFmt' && a.numFmtId !== undefined && a.formatCode !== undefined)
        formats.set(Number(a.numFmtId), a.formatCode);
      else if (tag === 'cellXfs') inCellXfs = true;
      else if (tag === 'xf' && inCellXfs) xfs.push(a.numFmtId === undefined ? 0 : Number(a.numFmtId));
    },
    close(tag) {
      if (tag === 'cellXfs') inCellXfs = false;
    },
  });
  return { formats, xfs };
}

/** The shared strings as SheetJS reads them: an item's first <t> when it starts with one, else every run's text
 *  (phonetic runs left out). */
async function readSharedStrings(bytes: Uint8Array, name: string, part: string): Promise<string[]> {
  const strings: string[] = [];
  await new StringItems((text) => strings.push(text)).read(bytes, name, part);
  return strings;
}

/** Reads <si> items (or a cell's <is>) as they are parsed: their text, as readSharedStrings says. */
class StringItems {
  /** Inside an item. */
  active = false;
  private plain?: boolean;
  private inT = false;
  private inPhonetic = 0;
  private firstDone = false;
  private collected = '';

  constructor(
    private readonly onItem: (text: string) => void,
    private readonly item = 'si',
  ) {}

  async read(bytes: Uint8Array, name: string, part: string): Promise<void> {
    await parseEntry(bytes, name, part, {
      open: (tag) => this.open(tag),
      text: (text) => this.text(text),
      close: (tag) => this.close(tag),
    });
  }

  open(tag: string): void {
    if (tag === this.item) {
      this.active = true;
      this.plain = undefined;
      this.firstDone = false;
      this.collected = '';
      return;
    }
    if (!this.active) return;
    this.plain ??= tag === 't';
    if (tag === 'rPh') this.inPhonetic++;
    if (tag === 't' && !this.inPhonetic && !(this.plain && this.firstDone)) this.inT = true;
  }

  text(text: string): void {
    if (this.inT) this.collected += text;
  }

  close(tag: string): void {
    if (!this.active) return;
    if (tag === 't' && this.inT) {
      this.inT = false;
      this.firstDone = true;
    } else if (tag === 'rPh') this.inPhonetic--;
    else if (tag === this.item) {
      this.active = false;
      this.onItem(xlsxText(this.collected));
    }
  }
}

type Format = (value: number | string | boolean, style: number) => string;

/** A cell's text as SheetJS writes it (its `w`): its value through its style's number format. */
function cellFormatter({ formats, xfs }: Styles, date1904: boolean): Format {
  learnImplicitFormats(xfs.filter((id) => !formats.has(id) && XLSX.SSF.get_table()[id] === undefined));
  const table: Record<number, string> = { ...XLSX.SSF.get_table() };
  for (const [id, code] of formats) table[id] = code;
  const opts = { table, date1904 };
  // A column of dates or prices repeats its values: each is formatted once (the cache is emptied when it grows).
  const cache = new Map<string, string>();
  return (value, style) => {
    const id = xfs[style] ?? 0;
    if (id === 0) {
      if (typeof value === 'string') return value;
      if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
      if ((value | 0) === value) return value.toString(10);
      return general(value, opts);
    }
    const key = `${id} ${typeof value} ${value}`;
    const known = cache.get(key);
    if (known !== undefined) return known;
    let text: string;
    try {
      text = XLSX.SSF.format(id, value, opts) ?? String(value);
    } catch {
      text = String(value);
    }
    if (cache.size >= 50_000) cache.clear();
    cache.set(key, text);
    return text;
  };
}

function general(value: number, opts: object): string {
  try {
    return XLSX.SSF.format(0, value, opts) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Built-in formats a workbook may use without writing them down (the locale's currency, dates, …) are known to
 * SheetJS, which loads one into its format table when a cell it reads uses it; the table is all its API shows. A
 * one-cell workbook per such format, read by SheetJS, puts them there.
 */
function learnImplicitFormats(ids: readonly number[]): void {
  for (const id of new Set(ids)) {
    const xml = (body: string) => strToU8(`<?xml version="1.0"?>${body}`);
    const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const type = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
    const book = zipSync({
      '[Content_Types].xml': xml(
        `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="${type}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${type}.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="${type}.styles+xml"/></Types>`,
      ),
      'xl/workbook.xml': xml(
        `<workbook ${ns} xmlns:r="${rel}"><sheets><sheet name="f" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
      'xl/_rels/workbook.xml.rels': xml(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/styles" Target="styles.xml"/></Relationships>`,
      ),
      'xl/styles.xml': xml(`<styleSheet ${ns}><cellXfs><xf numFmtId="${id}"/></cellXfs></styleSheet>`),
      'xl/worksheets/sheet1.xml': xml(
        `<worksheet ${ns}><sheetData><row r="1"><c r="A1" s="0"><v>1</v></c></row></sheetData></worksheet>`,
      ),
    });
    try {
      XLSX.read(book, { type: 'array' });
    } catch {
      // a format SheetJS does not know either: General, as it would read it
    }
  }
}

/**
 * One pass over a worksheet: each row's cells (in the order they come) with the row's 0-based index. Returns the
 * range its cells span (as SheetJS guesses it when the sheet has no <dimension>); `onDimension` hears of a
 * <dimension> before the first row.
 */
async function scanSheet(
  bytes: Uint8Array,
  name: string,
  part: string,
  { strings, format, date1904 }: { strings: readonly string[]; format: Format; date1904: boolean },
  onRow: (row: number, cells: Cell[]) => void,
  onDimension?: (range: Range) => void,
): Promise<Range | undefined> {
  const guess: Range = { s: { r: 2_000_000, c: 2_000_000 }, e: { r: 0, c: 0 } };
  let inData = false;
  let rowTag = 0; // SheetJS's tagr: the row's 1-based number
  let col = -1; // SheetJS's tagc
  let row: number | undefined;
  let cells: Cell[] = [];
  let cell: { col: number; row: number; t?: string; s: number; v?: string; inV: boolean; is?: string } | undefined;
  const inline = new StringItems((text) => {
    if (cell) cell.is = text;
  }, 'is');
  const flush = () => {
    if (row !== undefined && cells.length) onRow(row, cells);
    cells = [];
  };
  const finishCell = (c: NonNullable<typeof cell>) => {
    const v = c.v === '' ? undefined : c.v === undefined ? undefined : xlsxTextV(c.v);
    if (c.t === undefined && v === undefined) return;
    if (guess.s.c > c.col) guess.s.c = c.col;
    if (guess.e.c < c.col) guess.e.c = c.col;
    let text: string;
    let value = true;
    switch (c.t ?? 'n') {
      case 'n':
        if (v === undefined) return;
        text = format(parseFloat(v), c.s);
        break;
      case 's':
        if (v === undefined) return;
        text = format(strings[parseInt(v, 10)] ?? '', c.s);
        break;
      case 'str':
        text = format(v === undefined ? '' : v.replace(/\r\n/g, '\n'), c.s);
        break;
      case 'inlineStr':
        text = format(c.is ?? '', c.s);
        break;
      case 'b':
        text = format(v === '1' || v === 'true', c.s);
        break;
      case 'e':
        text = '';
        value = false;
        break;
      case 'd': {
        // An ISO date (strict OOXML) as the serial number SheetJS turns it into.
        const serial = ((v === undefined ? NaN : Date.parse(v)) - Date.UTC(1899, 11, 30)) / 86_400_000;
        text = format(date1904 ? serial - 1462 : serial, c.s);
        break;
      }
      default:
        text = v ?? '';
    }
    if (row !== c.row) {
      flush();
      row = c.row;
    }
    cells.push({ col: c.col, text, value });
  };
  await parseEntry(bytes, name, part, {
    open(tag, a) {
      if (cell) {
        if (tag === 'v') cell.inV = true;
        else if (tag === 'is' || inline.active) inline.open(tag);
        return;
      }
      if (tag === 'row' && inData) {
        rowTag = a.r !== undefined ? parseInt(a.r, 10) : rowTag + 1;
        col = -1;
        if (guess.s.r > rowTag - 1) guess.s.r = rowTag - 1;
        if (guess.e.r < rowTag - 1) guess.e.r = rowTag - 1;
      } else if (tag === 'c' && inData) {
        const ref = a.r ? decodeCell(a.r) : undefined;
        col = ref ? ref.c : col + 1;
        cell = {
          col,
          row: ref && ref.r >= 0 ? ref.r : rowTag - 1,
          t: a.t,
          s: a.s === undefined ? 0 : Number(a.s),
          inV: false,
        };
      } else if (tag === 'sheetData') inData = true;
      else if (tag === 'dimension' && !inData && onDimension) {
        const range = /^\w*:\w*$/.test(a.ref ?? '') ? decodeRange(a.ref!) : undefined;
        if (range && range.s.r <= range.e.r && range.s.c <= range.e.c && range.s.r >= 0 && range.s.c >= 0)
          onDimension(range);
      }
    },
    text(text) {
      if (!cell) return;
      if (cell.inV) cell.v = (cell.v ?? '') + text;
      else inline.text(text);
    },
    close(tag) {
      if (!cell) {
        if (tag === 'sheetData') {
          inData = false;
          flush();
        }
        return;
      }
      if (tag === 'v') cell.inV = false;
      else if (tag === 'c') {
        const done = cell;
        cell = undefined;
        finishCell(done);
      } else inline.close(tag);
    },
  });
  flush();
  return guess.e.c >= guess.s.c && guess.e.r >= guess.s.r ? guess : undefined;
}

/** A <v>'s text: XML entities are decoded by the parser, OOXML's `_xHHHH_` escapes here. */
function xlsxTextV(v: string): string {
  return v.includes('_x')
    ? v.replace(/_x([\da-fA-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : v;
}

/** "B3" as {r: 2, c: 1} (uppercase column letters, as SheetJS reads them). */
function decodeCell(ref: string): { r: number; c: number } {
  let c = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const code = ref.charCodeAt(i) - 64;
    if (code < 1 || code > 26) break;
    c = 26 * c + code;
  }
  const r = parseInt(ref.slice(i), 10);
  return { r: Number.isNaN(r) ? -1 : r - 1, c: c - 1 };
}

function decodeRange(ref: string): Range {
  const [a, b] = ref.split(':');
  return { s: decodeCell(a!), e: decodeCell(b ?? a!) };
}

/** The workbook's title (docProps/core.xml's dc:title). */
function readTitle(core: string): string | undefined {
  let inTitle = false;
  let title = '';
  const parser = new Parser(
    {
      onopentag: (tag) => (inTitle = local(tag) === 'title'),
      ontext: (text) => {
        if (inTitle) title += text;
      },
      onclosetag: () => (inTitle = false),
    },
    { xmlMode: true },
  );
  parser.end(core);
  return title.trim() || undefined;
}
