// Excel (.xlsx and the older binary .xls) through SheetJS: one page per sheet, each a markdown table of the cells'
// formatted text. An .xlsx is inflated once first under the zip-bomb limits, since SheetJS inflates without any.
import type * as Sheets from '@e965/xlsx';
import { loadOptional } from '../../config/optional-package';
import { DocumentError, type DocumentPage } from '../types';
import { readZip } from '../zip';
import { markdownTables } from './markdown-table';

export async function parseSheets(
  bytes: Uint8Array,
  name: string,
  kind: 'xlsx' | 'xls',
  maxUnzipped: number,
): Promise<{ title?: string; pages: DocumentPage[] }> {
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
