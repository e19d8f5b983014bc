import { describe, expect, it } from 'vitest';
import { buttons, render, textOf } from './test-html';
import { promptKeys, Welcome } from './welcome';

const descriptions = [{ name: 'mcp-echo', description: 'Echoes the text back.' }];

describe('the welcome page', () => {
  it('offers three or four prompts that follow the tools that are on', () => {
    expect(promptKeys(['calculator', 'current_time'], 'fncall')).toEqual(['calculator', 'current_time', 'explain']);
    expect(promptKeys([], 'assistant')).toEqual(['retrieval', 'explain', 'write']);
    expect(promptKeys(['code_interpreter', 'calculator', 'retrieval', 'web_search', 'storage'], 'fncall')).toEqual([
      'code_interpreter',
      'calculator',
      'retrieval',
      'web_search',
    ]);
    expect(promptKeys([], 'fncall')).toEqual(['explain', 'write']);
  });

  it('says what the agent can do with its tools and where files go, in the page language', () => {
    const page = <Welcome tools={['calculator', 'mcp-echo']} agent="fncall" descriptions={descriptions} />;
    const en = textOf(render(page));
    expect(en).toContain('What can I help with?');
    expect(en).toMatch(/calculator ?: do exact arithmetic/);
    expect(en).toMatch(/mcp-echo ?: Echoes the text back\./); // a tool the catalog does not know says it itself
    expect(en).toContain('Upload files button');
    const zh = render(page, 'zh-CN');
    expect(textOf(zh)).toContain('有什么可以帮你？');
    expect(textOf(zh)).toContain('推荐对话');
    expect(textOf(zh)).toMatch(/calculator ?：精确地做算术/);
    expect(buttons(zh).map((b) => b.name)).toContain('2340 的 17% 是多少？');
  });

  it("shows an agent's own prompts as written, and says so when no tool is on", () => {
    const html = render(<Welcome tools={[]} agent="fncall" suggestions={['Plan my week', '写一封邮件']} />, 'zh-CN');
    expect(buttons(html).map((b) => b.name)).toEqual(['Plan my week', '写一封邮件']);
    expect(textOf(html)).toContain('目前没有开启任何工具');
  });

  it('sends a saved agent without tools to its editor, not to Settings, in both languages', () => {
    const en = textOf(render(<Welcome tools={[]} agent="fncall" savedAgent="saved" />));
    expect(en).toContain('This agent has no tools');
    expect(en).toContain('Agents page');
    expect(en).not.toContain('Settings');
    const zh = textOf(render(<Welcome tools={[]} agent="fncall" savedAgent="saved" />, 'zh-CN'));
    expect(zh).toContain('这个智能体没有工具');
    expect(zh).not.toContain('设置');
  });

  it('tells an agent from code without tools that it cannot be edited here, and what to do, in both languages', () => {
    const page = <Welcome tools={[]} agent="fncall" savedAgent="from-code" />;
    const en = textOf(render(page));
    expect(en).toContain(
      'This agent comes from code (a plugin file) and has no tools, so it answers from the model alone. It cannot be edited here: duplicate it on the Agents page and give the copy tools, or change its file.',
    );
    expect(en).not.toContain('(Edit)');
    const zh = textOf(render(page, 'zh-CN'));
    expect(zh).toContain('这个智能体来自代码（插件文件），没有工具');
    expect(zh).toContain('复制它');
    expect(zh).not.toContain('编辑它，为它选择工具');
  });
});
