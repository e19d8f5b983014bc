import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImageHostsProvider } from '../chat/answer-image';
import { buttons, render } from '../chat/test-html';
import { AgentsPanel } from './agents-panel';
import { blankAgent, useAgents, type ListedAgent } from './agents-store';

const agent = (over: Partial<ListedAgent>): ListedAgent => ({
  ...blankAgent(),
  id: 'a1',
  createdAt: 0,
  updatedAt: 0,
  ...over,
});

// The glyphs the rows used as icons before they were drawn as SVG, like the rest of the app's.
const GLYPHS = /[✎⧉⇩✕🤖]/u;

const panel = (locale: 'en' | 'zh-CN' = 'en') =>
  render(
    <ImageHostsProvider hosts={[]}>
      <AgentsPanel />
    </ImageHostsProvider>,
    locale,
  );

describe('the Agents list’s icons', () => {
  // A server render reads a store's initial state (zustand's server snapshot): the list is put there, and taken out.
  const initial = useAgents.getInitialState();
  afterEach(() => void Object.assign(initial, { agents: [] }));
  beforeEach(() => {
    Object.assign(initial, {
      agents: [
        // An avatar on a host the page may not load: the row shows the neutral face.
        agent({ id: 'a1', name: 'Owl', avatar: 'https://tracker.example.net/owl.png' }),
        agent({ id: 'a2', name: 'Plugged', avatar: '🦉', plugin: 'plugged.mjs' }),
      ],
    });
  });

  it('draws each row button’s icon as a hidden SVG, the button named by its label, with no glyph left', () => {
    const html = panel();
    expect(html).not.toMatch(GLYPHS);
    const rows = buttons(html).filter((b) => /^(Edit|Duplicate|Export|Delete) /.test(b.attrs['aria-label'] ?? ''));
    expect(rows.map((b) => b.attrs['aria-label'])).toEqual([
      'Edit Owl',
      'Duplicate Owl',
      'Export Owl',
      'Delete Owl',
      'Duplicate Plugged',
      'Export Plugged',
    ]);
    for (const b of rows) {
      expect(b.inner).toMatch(/^<svg aria-hidden="true"[^>]*>[\s\S]*<\/svg>$/);
      expect(b.inner).not.toContain('focusable="true"');
      expect(b.name).toBe(''); // nothing spoken but the aria-label
    }
  });

  it('shows the neutral face as a hidden SVG, and the agent’s own emoji as it is', () => {
    const html = panel();
    const owl = buttons(html).find((b) => b.attrs['aria-label'] === 'Chat with Owl');
    expect(owl?.inner).toMatch(/^<svg aria-hidden="true"[^>]*data-avatar-fallback=""[^>]*>/);
    expect(owl?.name).toBe('Owl');
    const plugged = buttons(html).find((b) => b.attrs['aria-label'] === 'Chat with Plugged');
    expect(plugged?.inner).toContain('🦉');
  });

  it('names the buttons in Chinese on the Chinese page, icons the same', () => {
    const html = panel('zh-CN');
    expect(html).not.toMatch(GLYPHS);
    for (const name of ['编辑 Owl', '复制 Owl', '导出 Owl', '删除 Owl']) {
      const b = buttons(html).find((x) => x.attrs['aria-label'] === name);
      expect(b?.inner).toMatch(/^<svg aria-hidden="true"/);
    }
  });
});
