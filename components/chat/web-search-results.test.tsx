import { describe, expect, it } from 'vitest';
import type { ToolBlock } from '../../lib/chat/view';
import { ToolCard } from './tool-card';
import { render } from './test-html';

const result = JSON.stringify(
  {
    query: 'otters',
    provider: 'searxng',
    results: [
      { title: 'Otter - Wikipedia', url: 'https://en.wikipedia.org/wiki/Otter', snippet: 'Otters are mammals.' },
      { title: 'Evil', url: 'javascript:alert(1)', snippet: 'no link for this one' },
    ],
  },
  null,
  4,
);
const block: ToolBlock = {
  kind: 'tool',
  id: 'tool-1-1',
  iteration: 1,
  functionId: '1',
  name: 'web_search',
  arguments: '{"query": "otters"}',
  status: 'done',
  result,
  durationMs: 40,
};

describe('the web_search card', () => {
  it('shows each result as a link with its URL and snippet', () => {
    const html = render(<ToolCard block={block} defaultOpen />);
    expect(html).toContain(
      '<a href="https://en.wikipedia.org/wiki/Otter" target="_blank" rel="noopener noreferrer nofollow"',
    );
    expect(html).toContain('Otter - Wikipedia</a>');
    expect(html).toContain('Otters are mammals.');
  });

  it('never turns a non-http URL into a link', () => {
    const html = render(<ToolCard block={block} defaultOpen />);
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('no link for this one');
  });

  it('falls back to the plain result for anything else (an error text)', () => {
    const html = render(<ToolCard block={{ ...block, result: 'not json' }} defaultOpen />);
    expect(html).toContain('not json');
    expect(html).not.toContain('<ol');
  });
});
