import { describe, expect, it } from 'vitest';
import { render, textOf } from '../chat/test-html';
import { ModelSelect } from './agent-editor';

// Server-rendered, the store's groups are their first state: not listed yet. That the listed models are offered
// (the environment's OPENAI_MODEL among them) is e2e/agents.spec.ts's, in a browser.

describe('the agent editor’s model list', () => {
  it('says the models are loading until the listing is back, rather than offering only the server’s default', () => {
    const html = render(<ModelSelect onChange={() => {}} />);
    expect(html).toContain('aria-busy="true"');
    expect(textOf(html)).toBe("Model The server's default Loading models…");
    expect(textOf(render(<ModelSelect onChange={() => {}} />, 'zh-CN'))).toContain('正在加载模型…');
  });
});
