import { describe, expect, it } from 'vitest';
import en from '../i18n/messages/en.json';
import zh from '../i18n/messages/zh-CN.json';
import { acceptedTypesText, DOCUMENT_TYPE_NAMES, IMAGE_TYPE_NAMES } from './accepted-types';
import { IMAGE_KINDS } from './image-kind';
import { sniffKind } from './sniff';

describe('the accepted types', () => {
  it('name the images a message may carry as well as the documents', () => {
    expect(IMAGE_TYPE_NAMES).toEqual(['PNG', 'JPEG', 'WebP', 'GIF']);
    expect(IMAGE_TYPE_NAMES).toHaveLength(IMAGE_KINDS.length);
    expect(acceptedTypesText()).toBe(
      'PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx, .xls), CSV, TSV, HTML, Markdown or plain text documents, ' +
        'and PNG, JPEG, WebP or GIF images',
    );
  });

  it('are what the server says of a file it cannot read', () => {
    const rar = Uint8Array.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00]);
    expect(() => sniffKind(rar, 'backup.rar')).toThrow(
      `backup.rar is a RAR archive, which cannot be read. Supported: ${acceptedTypesText()}.`,
    );
  });

  it('are given to both catalogs’ message, which says them with no list of its own', () => {
    for (const catalog of [en, zh]) {
      const text = catalog.documents.errors.unsupported;
      expect(text).toContain('{documents}');
      expect(text).toContain('{images}');
      for (const name of [...DOCUMENT_TYPE_NAMES, ...IMAGE_TYPE_NAMES]) expect(text).not.toContain(name);
    }
  });
});
