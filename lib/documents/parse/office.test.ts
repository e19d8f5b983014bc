import { describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import {
  lieAboutSizes,
  makeDocx,
  makePptx,
  makeWorkbook,
  makeXlsxParts,
  makeZipBombDocx,
} from '../../../test/support/document-fixtures';
import { DocumentError } from '../types';
import { parseDocx } from './docx';
import { parsePptx } from './pptx';
import { parseSheets } from './sheet';
import { parseXlsx } from './xlsx';

const LIMIT = 50 * 1024 * 1024;

describe('parseDocx', () => {
  it('keeps headings, paragraphs and tables (as markdown), with the title from the document properties', async () => {
    const docx = makeDocx(
      [
        { heading: 'Lighthouse maintenance' },
        { text: 'The lamp at Gullrock is cleaned every spring.' },
        {
          table: [
            ['Part', 'Interval'],
            ['Lens', '12 months'],
            ['Motor', '6 | 8 months'],
          ],
        },
      ],
      { title: 'Maintenance plan' },
    );
    const { title, pages } = await parseDocx(docx, 'plan.docx', LIMIT);
    expect(title).toBe('Maintenance plan');
    expect(pages).toEqual([
      {
        page: 1,
        paragraphs: [
          '# Lighthouse maintenance',
          'The lamp at Gullrock is cleaned every spring.',
          '| Part | Interval |\n| --- | --- |\n| Lens | 12 months |\n| Motor | 6 \\| 8 months |',
        ],
      },
    ]);
  });

  it('refuses a zip bomb before mammoth inflates it', async () => {
    const bomb = makeZipBombDocx(8 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const err = await parseDocx(bomb, 'bomb.docx', 2 * 1024 * 1024).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocumentError);
    expect(err).toMatchObject({ code: 'zip-bomb' });
    expect((err as Error).message).toBe(
      'bomb.docx was refused: it looks like a zip bomb (its parts declare 8 MB uncompressed, over the 2 MB limit).',
    );
  });

  it('catches a zip bomb that lies about its sizes while inflating', async () => {
    const liar = lieAboutSizes(makeZipBombDocx(8 * 1024 * 1024), 100);
    await expect(parseDocx(liar, 'liar.docx', 2 * 1024 * 1024)).rejects.toMatchObject({
      code: 'zip-bomb',
      message: expect.stringMatching(/inflates past the 2 MB limit|expands more than 500 times/),
    });
  });
});

describe('parsePptx', () => {
  it('gives a page per slide in presentation order, with bullet paragraphs and tables', () => {
    const pptx = makePptx(
      [
        { title: 'Fleet review', bullets: ['Three new tugs', 'One retired ferry'] },
        {
          title: 'Budget',
          table: [
            ['Item', 'Cost'],
            ['Tugs', '9M'],
          ],
        },
        { title: 'Questions' },
      ],
      { title: 'Fleet 2026' },
    );
    const { title, pages } = parsePptx(pptx, 'fleet.pptx', LIMIT);
    expect(title).toBe('Fleet 2026');
    expect(pages).toEqual([
      { page: 1, paragraphs: ['Fleet review', 'Three new tugs', 'One retired ferry'] },
      { page: 2, paragraphs: ['Budget', '| Item | Cost |\n| --- | --- |\n| Tugs | 9M |'] },
      { page: 3, paragraphs: ['Questions'] },
    ]);
  });
});

describe('parseSheets', () => {
  const sheets = {
    Cargo: [
      ['Port', 'Tonnes', 'Date'],
      ['Tidewick', 4200, '2026-09-30'],
      ['Gullrock', 1300.5, '2026-09-30'],
    ],
    Crew: [
      ['Name', 'Role'],
      ['Ana', 'Pilot'],
    ],
  };

  it('reads an .xlsx: a page per sheet, each a markdown table under the sheet name', async () => {
    const { pages } = await parseSheets(makeWorkbook(sheets, 'xlsx'), 'cargo.xlsx', 'xlsx', LIMIT);
    expect(pages).toEqual([
      {
        page: 1,
        paragraphs: [
          '## Cargo',
          '| Port | Tonnes | Date |\n| --- | --- | --- |\n| Tidewick | 4200 | 2026-09-30 |\n| Gullrock | 1300.5 | 2026-09-30 |',
        ],
      },
      { page: 2, paragraphs: ['## Crew', '| Name | Role |\n| --- | --- |\n| Ana | Pilot |'] },
    ]);
  });

  it('reads the binary .xls format the same way', async () => {
    const { pages } = await parseSheets(makeWorkbook(sheets, 'xls'), 'cargo.xls', 'xls', LIMIT);
    expect(pages.map((p) => p.paragraphs[0])).toEqual(['## Cargo', '## Crew']);
    expect(pages[0]!.paragraphs[1]).toContain('| Tidewick | 4200 | 2026-09-30 |');
  });

  it('reads an .xls whole only up to its own limit, and says to save a larger one as .xlsx', async () => {
    const xls = makeWorkbook(sheets, 'xls');
    await expect(parseSheets(xls, 'cargo.xls', 'xls', LIMIT, xls.length - 1)).rejects.toMatchObject({
      code: 'too-large',
      message: expect.stringMatching(
        /^cargo\.xls is a binary Excel workbook \(\.xls\) of [\d.]+ KB, read whole, which is done up to [\d.]+ KB; save it as \.xlsx and upload that\.$/,
      ),
    });
    expect((await parseSheets(xls, 'cargo.xls', 'xls', LIMIT, xls.length)).pages).toHaveLength(2);
  });

  it('splits a long sheet into tables of 50 rows, each repeating the header', async () => {
    const rows = [['n', 'square'], ...Array.from({ length: 120 }, (_, i) => [i, i * i])];
    const { pages } = await parseSheets(makeWorkbook({ Squares: rows }, 'xlsx'), 's.xlsx', 'xlsx', LIMIT);
    const tables = pages[0]!.paragraphs.slice(1);
    expect(tables).toHaveLength(3);
    for (const t of tables) expect(t.startsWith('| n | square |\n| --- | --- |\n')).toBe(true);
    expect(tables[2]).toContain('| 119 | 14161 |');
  });

  it('shows each .xlsx cell as its number format does, errors as blanks, leaving rows without a value out', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['Day', 'Share', 'Price', 'Open', 'Check'],
      [new Date(Date.UTC(2026, 8, 30)), 0.125, 1234.5, true, { t: 'e', v: 7 }],
      [],
      [{ t: 'e', v: 42 }],
      [new Date(Date.UTC(2026, 9, 1)), 0.5, 12, false, 'ok'],
    ]);
    sheet.A2!.z = 'yyyy-mm-dd';
    sheet.B2!.z = '0.0%';
    sheet.C2!.z = '#,##0.00';
    sheet.A5!.z = 'd mmm yyyy';
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Prices & shares');
    book.Props = { Title: 'Quarter' };
    const bytes = Buffer.from(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const { title, pages } = await parseSheets(bytes, 'q.xlsx', 'xlsx', LIMIT);
    expect(title).toBe('Quarter');
    expect(pages).toEqual([
      {
        page: 1,
        paragraphs: [
          '## Prices & shares',
          '| Day | Share | Price | Open | Check |\n| --- | --- | --- | --- | --- |\n' +
            '| 2026-09-30 | 12.5% | 1,234.50 | TRUE |  |\n| 1 Oct 2026 | 0.5 | 12 | FALSE | ok |',
        ],
      },
    ]);
  });

  it('reads what SheetJS does not write: rich text, inline strings, implicit formats, a narrower <dimension>', async () => {
    const bytes = makeXlsxParts(
      '<dimension ref="A1:C3"/><sheetData>' +
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c><c r="D1"><v>9</v></c></row>' +
        '<row r="2"><c r="A2" s="1"><v>12.5</v></c><c r="B2" t="str"><f>A1</f><v>a &amp; b</v></c><c r="C2" t="s"><v>2</v></c></row>' +
        '<row r="4"><c r="A4"><v>4</v></c></row></sheetData>',
      {
        sharedStrings:
          '<si><t>plain</t><rPh><t>ふりがな</t></rPh></si><si><r><t>ri</t></r><r><rPr><b/></rPr><t xml:space="preserve">ch text</t></r><rPh><t>x</t></rPh></si><si><t>a_x000D_b|c</t></si>',
        styles: '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="7"/></cellXfs>',
        title: 'Hand made',
      },
    );
    expect(await parseSheets(bytes, 'h.xlsx', 'xlsx', LIMIT)).toEqual({
      title: 'Hand made',
      pages: [
        {
          page: 1,
          paragraphs: [
            '## One',
            // D1 and row 4 are outside the sheet's own <dimension>, so SheetJS never showed them either.
            '| plain | rich text | inline |\n| --- | --- | --- |\n| $12.50 | a & b | a b\\|c |',
          ],
        },
      ],
    });
  });

  it('refuses a workbook whose few shared strings repeat into more text than it may hold, as it reads it', async () => {
    const cells = Array.from({ length: 200 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>0</v></c></row>`);
    const bytes = makeXlsxParts(`<sheetData>${cells.join('')}</sheetData>`, {
      sharedStrings: `<si><t>${'x'.repeat(1000)}</t></si>`,
    });
    expect(bytes.length).toBeLessThan(8 * 1024);
    await expect(parseXlsx(bytes, 'amplified.xlsx', LIMIT, 100_000)).rejects.toThrow(
      expect.objectContaining({
        code: 'too-large',
        message: 'amplified.xlsx was refused: its cells read as more than 97.7 KB of text.',
      }),
    );
    expect((await parseXlsx(bytes, 'amplified.xlsx', LIMIT, 300_000)).pages[0]!.paragraphs).toHaveLength(5);
  });
});
