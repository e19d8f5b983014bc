import { describe, expect, it } from 'vitest';
import { collectFileRefs, withUploadInfo } from './upload-info';

describe('upload info for text-only models', () => {
  it('prefixes user messages with the uploaded file names and removes the file items', () => {
    const [msg] = withUploadInfo(
      [
        {
          role: 'user',
          content: [
            { text: 'Summarise it' },
            { file: '/data/files/ab12/report.pdf' },
            { image: 'file:///tmp/cat.png' },
          ],
        },
      ],
      { lang: 'en', keepImages: false },
    );
    expect(msg!.content).toBe('(Uploaded [file](report.pdf) ![image](cat.png)) Summarise it');
  });

  it('names a file whole, # and ? included, and writes a name with spaces or brackets as <name>', () => {
    const refs = [
      `files/${'a'.repeat(64)}/Invoice #42.pdf`,
      '/tmp/what?.md',
      'file:///tmp/minutes%20%5Bdraft%5D%20(2).md',
      'https://example.com/docs/%E5%AD%A3%E5%BA%A6.pdf?download=1#p3',
    ];
    const [msg] = withUploadInfo([{ role: 'user', content: [{ text: 'Read' }, ...refs.map((file) => ({ file }))] }], {
      lang: 'en',
      keepImages: false,
    });
    expect(msg!.content).toBe(
      '(Uploaded [file](<Invoice #42.pdf>) [file](what?.md) [file](<minutes [draft] (2).md>) [file](季度.pdf)) Read',
    );
  });

  it('uses the Chinese wording for zh and does not add the note twice', () => {
    const once = withUploadInfo([{ role: 'user', content: [{ text: '总结' }, { file: 'a.docx' }] }], {
      lang: 'zh',
      keepImages: false,
    });
    expect(once[0]!.content).toBe('（上传了 [文件](a.docx)）总结');
    const again = withUploadInfo(
      [{ role: 'user', content: [{ text: '（上传了 [文件](a.docx)）总结' }, { file: 'a.docx' }] }],
      { lang: 'zh', keepImages: false },
    );
    expect(again[0]!.content).toBe('（上传了 [文件](a.docx)）总结');
  });

  it('keeps images as items for vision models', () => {
    const [msg] = withUploadInfo([{ role: 'user', content: [{ text: 'look' }, { image: 'http://x/y.png' }] }], {
      lang: 'en',
      keepImages: true,
    });
    expect(msg!.content).toEqual([{ text: 'look' }, { image: 'http://x/y.png' }]);
  });

  it('collects every file and image reference once, in order', () => {
    expect(
      collectFileRefs([
        { role: 'user', content: [{ file: 'a.pdf' }, { image: 'b.png' }] },
        { role: 'assistant', content: 'x' },
        { role: 'user', content: [{ file: 'a.pdf' }, { file: 'c.csv' }] },
      ]),
    ).toEqual(['a.pdf', 'b.png', 'c.csv']);
  });
});
