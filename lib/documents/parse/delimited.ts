// CSV and TSV (RFC 4180: quoted fields may hold the delimiter, doubled quotes and line breaks), read as a stream of
// text pieces so that a file of any size allowed costs about its table's markdown in memory, never its rows: one
// pass measures the table, a second writes it (markdown-table.ts), each reading the text again.
import { MarkdownTable, TableShape } from './markdown-table';
import type { DocumentPage } from '../types';

/** Where a CSV's text comes from, as many times as it is asked: pieces of any size, in order. */
export type TextPieces = () => Iterable<string> | AsyncIterable<string>;

/** The delimiter is said by the first 64 KB of text. */
const SAMPLE_CHARS = 64 * 1024;

/** RFC 4180 records from text given in pieces (a field, a doubled quote or a "\r\n" may straddle two of them). */
export class RowReader {
  private row: string[] = [];
  private field = '';
  private quoted = false;
  /** The last piece ended on a quote inside a quoted field: the next piece says whether it was doubled. */
  private quoteAtEnd = false;
  /** The last piece ended on "\r": a "\n" opening the next one is part of the same line break. */
  private crAtEnd = false;
  private started = false;
  private readonly delimiter: number;

  constructor(
    delimiter: string,
    /** Every record, blank ones included. */
    private readonly onRow: (row: string[]) => void,
  ) {
    this.delimiter = delimiter.charCodeAt(0);
  }

  push(s: string): void {
    const n = s.length;
    if (!n) return;
    let i = 0;
    if (!this.started) {
      this.started = true;
      if (s.charCodeAt(0) === 0xfeff) i = 1;
    }
    if (this.crAtEnd) {
      this.crAtEnd = false;
      if (s.charCodeAt(i) === 10) i++;
    }
    if (this.quoteAtEnd) {
      this.quoteAtEnd = false;
      if (i < n && s.charCodeAt(i) === 34) {
        this.field += '"';
        i++;
      } else this.quoted = false;
    }
    const delimiter = this.delimiter;
    while (i < n) {
      if (this.quoted) {
        const q = s.indexOf('"', i);
        if (q < 0) {
          this.field += s.slice(i);
          return;
        }
        if (q > i) this.field += s.slice(i, q);
        if (q + 1 >= n) {
          this.quoteAtEnd = true;
          return;
        }
        if (s.charCodeAt(q + 1) === 34) {
          this.field += '"';
          i = q + 2;
        } else {
          this.quoted = false;
          i = q + 1;
        }
        continue;
      }
      let j = i;
      let c = 0;
      for (; j < n; j++) {
        c = s.charCodeAt(j);
        if (c === delimiter || c === 34 || c === 10 || c === 13) break;
      }
      if (j > i) this.field += s.slice(i, j);
      if (j >= n) return;
      i = j + 1;
      if (c === 34) {
        // A quote opens a quoted field only where the field is still empty; anywhere else it is a character.
        if (this.field === '') this.quoted = true;
        else this.field += '"';
      } else if (c === delimiter) {
        this.row.push(this.field);
        this.field = '';
      } else {
        this.row.push(this.field);
        this.field = '';
        const row = this.row;
        this.row = [];
        this.onRow(row);
        if (c === 13) {
          if (i >= n) this.crAtEnd = true;
          else if (s.charCodeAt(i) === 10) i++;
        }
      }
    }
  }

  /** The text is over: a last record without a line break is a record too. */
  end(): void {
    if (this.quoteAtEnd) this.quoted = false;
    if (this.field !== '' || this.row.length) {
      this.row.push(this.field);
      this.onRow(this.row);
    }
    this.row = [];
    this.field = '';
  }
}

/** A record a table keeps: more than one field, or one that is not blank. */
function kept(row: string[]): boolean {
  return row.length > 1 || Boolean(row[0]?.trim());
}

/** The records of `text`, blank lines left out; at most the first `limit` records are read. */
export function parseDelimitedRows(text: string, delimiter: string, limit = Infinity): string[][] {
  const rows: string[][] = [];
  let read = 0;
  const reader = new RowReader(delimiter, (row) => {
    if (read++ < limit) rows.push(row);
  });
  // Records past the limit are not wanted: the text is given only as far as needed (a few pieces at a time).
  const PIECE = 4096;
  for (let at = 0; at < text.length && read < limit; at += PIECE) reader.push(text.slice(at, at + PIECE));
  if (read < limit) reader.end();
  return rows.filter(kept);
}

/** At least `minRows` records in the first lines, all with the same number (≥ 2) of fields. */
export function looksDelimited(text: string, delimiter: string, minRows: number): boolean {
  if (!text.slice(0, 4096).includes(delimiter)) return false;
  const rows = parseDelimitedRows(text.slice(0, SAMPLE_CHARS), delimiter, 50);
  if (rows.length > 1 && text.length > SAMPLE_CHARS) rows.pop(); // the sample may have cut the last record
  if (rows.length < minRows) return false;
  const width = rows[0]!.length;
  return width >= 2 && rows.every((r) => r.length === width);
}

/** A CSV or TSV as one page of markdown tables, its text read twice from `pieces`. */
export async function parseDelimited(pieces: TextPieces | string, kind: 'csv' | 'tsv'): Promise<DocumentPage[]> {
  const source: TextPieces = typeof pieces === 'string' ? () => [pieces] : pieces;
  const delimiter = kind === 'tsv' ? '\t' : (await commaOrSemicolon(source)) ? ',' : ';';
  const shape = new TableShape();
  await readRows(source, delimiter, (row) => shape.add(row));
  const paragraphs: string[] = [];
  const table = new MarkdownTable(shape, paragraphs);
  await readRows(source, delimiter, (row) => table.add(row));
  table.end();
  return [{ page: 1, paragraphs }];
}

async function readRows(source: TextPieces, delimiter: string, onRow: (row: string[]) => void): Promise<void> {
  const reader = new RowReader(delimiter, (row) => {
    if (kept(row)) onRow(row);
  });
  for await (const piece of source()) reader.push(piece);
  reader.end();
}

/** A CSV's delimiter is a comma when its first 64 KB read as comma-separated records, else a semicolon. */
async function commaOrSemicolon(source: TextPieces): Promise<boolean> {
  let sample = '';
  for await (const piece of source()) {
    sample += piece;
    if (sample.length > SAMPLE_CHARS) break; // longer than the sample: looksDelimited knows its end may be cut
  }
  return looksDelimited(sample, ',', 2);
}
