import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../lib/protocol/conversation-settings';
import { rememberChoice, rememberedChoice, withChoice } from './new-chat-defaults';

/** localStorage's two methods over a Map. */
function memory() {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
}

describe('a new chat’s model and tools', () => {
  it('are the last the user chose, kept per user; the server’s defaults before any choice', () => {
    const store = memory();
    const defaults = defaultSettings();
    const offers = ['calculator', 'current_time', 'web_search'];
    expect(withChoice(defaults, rememberedChoice('a@example.com', store), offers)).toEqual(defaults);

    rememberChoice('a@example.com', { model: 'lab/beta-chat' }, store);
    rememberChoice('a@example.com', { tools: ['web_search'] }, store);
    rememberChoice('a@example.com', { temperature: 1 } as never, store);
    const a = withChoice(defaults, rememberedChoice('a@example.com', store), offers);
    expect(a).toMatchObject({ model: 'lab/beta-chat', tools: ['web_search'], agent: defaults.agent });
    // Another user of the same browser has their own.
    expect(withChoice(defaults, rememberedChoice('b@example.com', store), offers)).toEqual(defaults);
  });

  it('leave out a tool the user can no longer use, and survive a damaged entry', () => {
    const store = memory();
    rememberChoice('local', { tools: ['code_interpreter', 'calculator'] }, store);
    expect(withChoice(defaultSettings(), rememberedChoice('local', store), ['calculator']).tools).toEqual([
      'calculator',
    ]);
    store.setItem('agent-studio:new-chat:local', '{not json');
    expect(rememberedChoice('local', store)).toEqual({});
    store.setItem('agent-studio:new-chat:local', JSON.stringify({ model: 3, tools: 'calculator' }));
    expect(rememberedChoice('local', store)).toEqual({});
  });
});
