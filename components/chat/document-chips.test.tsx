import { describe, expect, it } from 'vitest';
import { DocumentChips } from './document-chips';
import { buttons, render, textOf } from './test-html';
import type { UploadItem } from './uploads';

const items: UploadItem[] = [
  { key: 'a', name: 'tides.pdf', size: 2048, state: 'ready', progress: 1, pages: 3 },
  { key: 'b', name: 'big.txt', size: 10, state: 'uploading', progress: 0.42 },
  {
    key: 'c',
    name: 'broken.pdf',
    size: 30,
    state: 'error',
    progress: 1,
    error: { message: 'broken.pdf is a corrupt PDF and cannot be read (bad xref).', code: 'corrupt' },
  },
  {
    key: 'd',
    name: 'huge.bin',
    size: 60 * 1024 * 1024,
    state: 'error',
    progress: 0,
    error: { code: 'too-large-limit', values: { name: 'huge.bin', limit: 50 * 1024 * 1024 } },
  },
];

describe('the document chips', () => {
  it("name each document with its state; failures first, in the server's words on an English page", () => {
    const html = render(<DocumentChips items={items} onRemove={() => {}} />);
    const text = textOf(html);
    expect(text.indexOf('broken.pdf')).toBeLessThan(text.indexOf('tides.pdf'));
    expect(text).toContain('tides.pdf ready, 3 pages');
    expect(text).toContain('big.txt uploading 42%');
    expect(text).toContain('error: broken.pdf is a corrupt PDF and cannot be read (bad xref).');
    expect(text).toContain('error: huge.bin is larger than the 50 MB limit per file.');
    expect(html).toContain('title="tides.pdf, 2 KB"');
    expect(buttons(html).map((b) => b.attrs['aria-label'])).toEqual([
      'Remove broken.pdf',
      'Remove huge.bin',
      'Remove tides.pdf',
      'Remove big.txt',
    ]);
  });

  it('say it all in Chinese on a Chinese page, the refusals by their code', () => {
    const text = textOf(render(<DocumentChips items={items} onRemove={() => {}} />, 'zh-CN'));
    expect(text).toContain('tides.pdf 已就绪，共 3 页');
    expect(text).toContain('big.txt 上传中 42%');
    expect(text).toContain('出错：broken.pdf 已损坏，无法读取。');
    expect(text).toContain('出错：huge.bin 超过了单个文件 50 MB 的大小上限。');
    expect(text).not.toContain('corrupt');
  });
});

describe('failed uploads', () => {
  it('several are cleared at once by one button, in either language; one alone by its own Remove', () => {
    const clear = (html: string) => buttons(html).filter((b) => !b.attrs['aria-label']);
    const both = render(<DocumentChips items={items} onRemove={() => {}} onClearFailed={() => {}} />);
    expect(clear(both).map((b) => b.name)).toEqual(['Clear errors (2)']);
    const zh = render(<DocumentChips items={items} onRemove={() => {}} onClearFailed={() => {}} />, 'zh-CN');
    expect(clear(zh).map((b) => b.name)).toEqual(['清除错误（2）']);
    const one = render(<DocumentChips items={items.slice(0, 3)} onRemove={() => {}} onClearFailed={() => {}} />);
    expect(clear(one)).toEqual([]);
    expect(buttons(one).map((b) => b.attrs['aria-label'])).toContain('Remove broken.pdf');
  });
});
