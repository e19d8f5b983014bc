import { describe, expect, it } from 'vitest';
import type { Message } from '../../llm/schema';
import { systemWith } from './system-with';

const user: Message = { role: 'user', content: 'What does page 2 say?' };

describe('systemWith', () => {
  it("adds the rules after the agent's own system message, keeping the rest", () => {
    const [system, body] = systemWith([{ role: 'system', content: 'You are terse.' }, user], 'RULES');
    expect(system).toEqual({ role: 'system', content: 'You are terse.\n\nRULES' });
    expect(body).toEqual([user]);
  });

  it('adds them as a text item to a system message made of items', () => {
    const [system] = systemWith([{ role: 'system', content: [{ text: 'You are terse.' }] }, user], 'RULES');
    expect(system.content).toEqual([{ text: 'You are terse.' }, { text: '\n\nRULES' }]);
  });

  it('makes a system message of the rules when there is none', () => {
    expect(systemWith([user], 'RULES')).toEqual([{ role: 'system', content: 'RULES' }, [user]]);
  });
});
