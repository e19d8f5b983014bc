import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePdf, textPage } from '../../../test/support/pdf-writer';
import { DocumentError } from '../types';
import { parsePdf } from './pdf';

const fixtures = path.join(__dirname, '../../../test/fixtures/documents');

describe('parsePdf', () => {
  it('reads a hand-written PDF: title, a page each, paragraphs joined from wrapped lines, a table', async () => {
    const long =
      'Tidewick harbour handled more refrigerated containers than ever before in the third quarter of the year';
    const pdf = makePdf(
      [
        textPage('Harbour notes', [long, 'A second paragraph.']),
        {
          texts: [
            { x: 72, y: 700, text: 'Port' },
            { x: 250, y: 700, text: 'Containers' },
            { x: 72, y: 686, text: 'Tidewick' },
            { x: 250, y: 686, text: '4200' },
            { x: 72, y: 672, text: 'Gullrock' },
            { x: 250, y: 672, text: '1300' },
          ],
        },
      ],
      { title: 'Harbour notes 2026' },
    );
    const { title, pages } = await parsePdf(pdf, 'notes.pdf');
    expect(title).toBe('Harbour notes 2026');
    expect(pages.map((p) => p.page)).toEqual([1, 2]);
    expect(pages[0]!.paragraphs).toEqual(['Harbour notes', long, 'A second paragraph.']);
    expect(pages[1]!.paragraphs).toEqual([
      '| Port | Containers |\n| --- | --- |\n| Tidewick | 4200 |\n| Gullrock | 1300 |',
    ]);
  });

  it('reads a PDF made by Ghostscript (ps2pdf)', async () => {
    const { pages } = await parsePdf(await readFile(path.join(fixtures, 'ghostscript.pdf')), 'gs.pdf');
    expect(pages).toHaveLength(2);
    expect(pages[0]!.paragraphs[0]).toBe('Quarterly Harbour Report');
    expect(pages[0]!.paragraphs[1]).toContain('handled 4,200 containers in the third quarter. Most of the growth');
    expect(pages[1]!.paragraphs).toEqual([
      'Outlook',
      'Next quarter the pilots expect fog delays near the lighthouse at Gullrock.',
    ]);
  });

  it('refuses a password-protected PDF, saying so', async () => {
    const bytes = await readFile(path.join(fixtures, 'encrypted.pdf'));
    await expect(parsePdf(bytes, 'locked.pdf')).rejects.toMatchObject({
      code: 'encrypted',
      message: 'locked.pdf is a password-protected PDF; remove the password and upload it again.',
    });
  });

  it('refuses a scanned PDF (images only), saying it has no text layer', async () => {
    const err = await parsePdf(makePdf([{ image: true }, { image: true }]), 'scan.pdf').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocumentError);
    expect(err).toMatchObject({ code: 'no-text' });
    expect((err as Error).message).toMatch(/^scan\.pdf has no text layer: its 2 pages are images/);
  });

  it('keeps an image-only page among text pages as an empty page', async () => {
    const { pages } = await parsePdf(makePdf([textPage('One', ['text']), { image: true }]), 'mixed.pdf');
    expect(pages.map((p) => p.paragraphs.length)).toEqual([2, 0]);
  });

  it('refuses a truncated PDF as corrupt', async () => {
    const pdf = makePdf([textPage('One', ['text'])]);
    await expect(parsePdf(pdf.subarray(0, 200), 'cut.pdf')).rejects.toMatchObject({
      code: 'corrupt',
      message: expect.stringMatching(/^cut\.pdf is a corrupt PDF/),
    });
  });
});
