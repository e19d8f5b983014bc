import { describe, expect, it } from 'vitest';
import { makeDocx, makePptx, makeWorkbook } from '../../test/support/document-fixtures';
import { makePdf, textPage } from '../../test/support/pdf-writer';
import { zipSync } from 'fflate';
import { sniffKind } from './sniff';

describe('sniffKind decides from the bytes, not the name', () => {
  it('recognises each format whatever the file is called', () => {
    expect(sniffKind(makePdf([textPage('a', ['b'])]), 'notes.txt')).toBe('pdf');
    expect(sniffKind(makeDocx([{ text: 'x' }]), 'x.pdf')).toBe('docx');
    expect(sniffKind(makePptx([{ title: 'x' }]), 'x.docx')).toBe('pptx');
    expect(sniffKind(makeWorkbook({ S: [['a']] }, 'xlsx'), 'x.csv')).toBe('xlsx');
    expect(sniffKind(makeWorkbook({ S: [['a']] }, 'xls'), 'x.txt')).toBe('xls');
    expect(sniffKind(Buffer.from('<!DOCTYPE html><html><body>x</body></html>'), 'page.txt')).toBe('html');
  });

  it('tells text kinds apart by content, with the name only as a tie-breaker', () => {
    expect(sniffKind(Buffer.from('a,b\n1,2\n3,4\n'), 'data')).toBe('csv');
    expect(sniffKind(Buffer.from('a,b\n1,2\n'), 'data.csv')).toBe('csv');
    expect(sniffKind(Buffer.from('a\tb\n1\t2\n3\t4\n'), 'data')).toBe('tsv');
    expect(sniffKind(Buffer.from('# Title\n\nSome *text*.'), 'readme')).toBe('markdown');
    expect(sniffKind(Buffer.from('Hello, world. Fine, thanks.\nBye.'), 'x.csv')).toBe('text');
    expect(sniffKind(Buffer.from('plain words'), 'notes.md')).toBe('markdown');
  });

  it('names what an unsupported file is', () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    expect(() => sniffKind(png, 'photo.pdf')).toThrow(
      'photo.pdf is a PNG image, which cannot be read. Supported: PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx, .xls), CSV, TSV, HTML, Markdown or plain text documents, and PNG, JPEG, WebP or GIF images.',
    );
    expect(() => sniffKind(Buffer.from(zipSync({ 'a.txt': new Uint8Array([65]) })), 'a.docx')).toThrow(
      /^a\.docx is a zip archive that is not a Word, PowerPoint or Excel document/,
    );
    expect(() => sniffKind(Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff]), 'blob.txt')).toThrow(
      /^blob\.txt is a binary file of an unknown type/,
    );
  });

  it('refuses an empty file and a broken zip with their own codes', () => {
    expect(() => sniffKind(Buffer.alloc(0), 'empty.pdf')).toThrow(expect.objectContaining({ code: 'empty' }));
    const cut = makeDocx([{ text: 'x' }]).subarray(0, 100);
    expect(() => sniffKind(cut, 'cut.docx')).toThrow(expect.objectContaining({ code: 'corrupt' }));
  });

  it('recognises a password-protected Office file (an encrypted OLE package)', () => {
    const ole = Buffer.alloc(1024);
    Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(ole);
    Buffer.from('EncryptedPackage', 'utf16le').copy(ole, 600);
    expect(() => sniffKind(ole, 'secret.docx')).toThrow(
      expect.objectContaining({
        code: 'encrypted',
        message: expect.stringContaining('password-protected Office document'),
      }),
    );
  });

  it('says a .doc or .ppt is an old Office file to save in the new format, under its own code', () => {
    const ole = (stream: string) => {
      const bytes = Buffer.alloc(1024);
      Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(bytes);
      Buffer.from(stream, 'utf16le').copy(bytes, 600);
      return bytes;
    };
    expect(() => sniffKind(ole('WordDocument'), 'old.doc')).toThrow(
      expect.objectContaining({
        code: 'old-word',
        message: 'old.doc is an old Word document (.doc), which cannot be read: save it as .docx and upload that.',
      }),
    );
    expect(() => sniffKind(ole('PowerPoint Document'), 'slides.ppt')).toThrow(
      expect.objectContaining({
        code: 'old-powerpoint',
        message: 'slides.ppt is an old PowerPoint file (.ppt), which cannot be read: save it as .pptx and upload that.',
      }),
    );
  });
});
