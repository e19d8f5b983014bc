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
