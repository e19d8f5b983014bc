import { describe, expect, it } from 'vitest';
import { AgentAvatar } from './agent-avatar';
import { ImageHostsProvider } from './answer-image';
import { render } from './test-html';

const avatar = (value: string, hosts: string[] = []) =>
  render(
    <ImageHostsProvider hosts={hosts}>
      <AgentAvatar avatar={value} />
    </ImageHostsProvider>,
  );

describe('AgentAvatar', () => {
  it('shows an emoji as text, and nothing for no avatar', () => {
    expect(avatar('🦉')).toBe('<span aria-hidden="true" class="shrink-0">🦉</span>');
    expect(avatar('')).toBe('');
  });

  it("shows an uploaded image, the app's own image and an IMAGE_HOSTS image", () => {
    expect(avatar('data:image/png;base64,iVBORw0KGgo=')).toContain('<img src="data:image/png;base64,iVBORw0KGgo="');
    expect(avatar('/api/files/abc/owl.png')).toContain('<img src="/api/files/abc/owl.png"');
    expect(avatar('https://images.example.com/owl.png', ['images.example.com'])).toContain(
      '<img src="https://images.example.com/owl.png"',
    );
  });

  it('never loads an image from another host: a neutral face instead of a broken image', () => {
    for (const url of ['https://tracker.example.net/pixel.png?who=me', 'http://images.example.com.evil.test/a.png']) {
      const html = avatar(url, ['images.example.com']);
      expect(html).not.toMatch(/<img|<link/);
      expect(html).not.toContain('example');
      // An icon like the app's others, hidden from screen readers (the row is named by the agent), not an emoji.
      expect(html).toMatch(/^<svg aria-hidden="true" data-avatar-fallback=""[^>]*>[\s\S]*<\/svg>$/);
      expect(html).not.toContain('🤖');
    }
  });
});
