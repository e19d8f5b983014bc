// Excel: one page per sheet, each a markdown table of the cells' formatted text. An .xlsx is read as a stream in
// bounded memory (xlsx.ts); the older binary .xls, and the binary .xlsb, through SheetJS, which holds the whole
// workbook (an .xlsb is inflated once first under the zip-bomb limits, since SheetJS inflates without any). Held
// whole, a workbook costs about 35 times its size in memory (an 11.6 MB .xls: 400 MB), so those two are read up to
// WHOLE_WORKBOOK_MAX_BYTES only.
import type * as Sheets from '@e965/xlsx';
import { loadOptional } from '../../config/optional-package';
import { formatBytes } from '../limits';
import { DocumentError, type DocumentPage } from '../types';
import { readZip, zipEntries } from '../zip';
import { markdownTables } from './markdown-table';
import { isXmlWorkbook, parseXlsx } from './xlsx';

/** The largest .xls or .xlsb read (whole, by SheetJS): what keeps its cost under 600 MB of memory. */
export const WHOLE_WORKBOOK_MAX_BYTES = 12 * 1024 * 1024;

export async function parseSheets(
  bytes: Uint8Array,
  name: string,
  kind: 'xlsx' | 'xls',
  maxUnzipped: number,
  wholeMax = WHOLE_WORKBOOK_MAX_BYTES,
): Promise<{ title?: string; pages: DocumentPage[] }> {
  const xml = kind === 'xlsx' && isXmlWorkbook(new Set(zipEntries(bytes, name).map((e) => e.name)));
  if (xml) return parseXlsx(bytes, name, maxUnzipped);
  if (bytes.length > wholeMax)
    throw new DocumentError(
      `${name} is a binary Excel workbook (${kind === 'xls' ? '.xls' : '.xlsb'}) of ${formatBytes(bytes.length)}, ` +
        `read whole, which is done up to ${formatBytes(wholeMax)}; save it as .xlsx and upload that.`,
      'too-large',
    );
  if (kind === 'xlsx') readZip(bytes, name, { maxTotal: maxUnzipped, keep: () => false });
  const XLSX = await loadOptional('@e965/xlsx', 'Reading spreadsheets', () => import('@e965/xlsx'));
  let book: Sheets.WorkBook;
  try {
    book = XLSX.read(bytes, { type: 'array', dense: true, cellFormula: false, cellHTML: false, bookVBA: false });
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    if (/password|encrypt/i.test(reason))
      throw new DocumentError(
        `${name} is a password-protected spreadsheet; remove the password and upload it again.`,
        'encrypted',
      );
    throw new DocumentError(`${name} is a corrupt spreadsheet (${reason}).`, 'corrupt');
  }
  const pages = book.SheetNames.map((sheetName, i): DocumentPage => {
    const sheet = book.Sheets[sheetName];
    const rows = sheet
      ? XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: false })
      : [];
    const cells = rows.map((r) => r.map((v) => (v === null || v === undefined ? '' : String(v))));
    return { page: i + 1, paragraphs: [`## ${sheetName}`, ...markdownTables(cells)] };
  });
  const title = typeof book.Props?.Title === 'string' && book.Props.Title.trim() ? book.Props.Title.trim() : undefined;
  return { title, pages };
}
