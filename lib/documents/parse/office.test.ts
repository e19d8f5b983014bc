import { describe, expect, it } from 'vitest';
import {
  lieAboutSizes,
  makeDocx,
  makePptx,
  makeWorkbook,
  makeZipBombDocx,
} from '../../../test/support/document-fixtures';
import { DocumentError } from '../types';
import { parseDocx } from './docx';
import { parsePptx } from './pptx';
import { parseSheets } from './sheet';

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

  it('splits a long sheet into tables of 50 rows, each repeating the header', async () => {
    const rows = [['n', 'square'], ...Array.from({ length: 120 }, (_, i) => [i, i * i])];
    const { pages } = await parseSheets(makeWorkbook({ Squares: rows }, 'xlsx'), 's.xlsx', 'xlsx', LIMIT);
    const tables = pages[0]!.paragraphs.slice(1);
    expect(tables).toHaveLength(3);
    for (const t of tables) expect(t.startsWith('| n | square |\n| --- | --- |\n')).toBe(true);
    expect(tables[2]).toContain('| 119 | 14161 |');
  });
});
