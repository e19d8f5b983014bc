import { describe, expect, it } from 'vitest';
import { render, textOf } from '../chat/test-html';
import { ModelPicker } from './model-picker';

describe('the header’s model picker', () => {
  it('says the models are loading until the first listing is back (never "Default model" for a moment)', () => {
    const html = render(<ModelPicker />);
    expect(textOf(html)).toBe('Loading models…');
    expect(html).toContain('aria-busy="true"');
    expect(textOf(render(<ModelPicker />, 'zh-CN'))).toBe('正在加载模型…');
  });
});
