// CSV and TSV (RFC 4180: quoted fields may hold the delimiter, doubled quotes and line breaks).
import { markdownTables } from './markdown-table';
import type { DocumentPage } from '../types';

export function parseDelimitedRows(text: string, delimiter: string, limit = Infinity): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const src = text.replace(/^\uFEFF/, '');
  while (i < src.length && rows.length < limit) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      if (ch === '\r' && src[i + 1] === '\n') i++;
    } else field += ch;
    i++;
  }
  if ((field !== '' || row.length) && rows.length < limit) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1 || r[0]?.trim());
}

/** At least `minRows` records in the first lines, all with the same number (≥ 2) of fields. */
export function looksDelimited(text: string, delimiter: string, minRows: number): boolean {
  if (!text.slice(0, 4096).includes(delimiter)) return false;
  const rows = parseDelimitedRows(text.slice(0, 64 * 1024), delimiter, 50);
  if (rows.length > 1 && text.length > 64 * 1024) rows.pop(); // the sample may have cut the last record
  if (rows.length < minRows) return false;
  const width = rows[0]!.length;
  return width >= 2 && rows.every((r) => r.length === width);
}

export function parseDelimited(text: string, kind: 'csv' | 'tsv'): DocumentPage[] {
  const delimiter = kind === 'tsv' ? '\t' : looksDelimited(text, ',', 2) ? ',' : ';';
  return [{ page: 1, paragraphs: markdownTables(parseDelimitedRows(text, delimiter)) }];
}
