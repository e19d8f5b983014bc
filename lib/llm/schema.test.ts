import { describe, expect, it } from 'vitest';
import { detectLang, serializeMessage, toMessage } from './schema';

describe('message schema', () => {
  it('accepts exactly the roles system, user, assistant, function', () => {
    for (const role of ['system', 'user', 'assistant', 'function'])
      expect(toMessage({ role, content: 'x' }).role).toBe(role);
    expect(() => toMessage({ role: 'tool', content: 'x' })).toThrow(
      /role must be one of system, user, assistant, function \(got "tool"\)/,
    );
  });

  it('requires exactly one of text/image/file/audio/video in a content item; empty text is valid', () => {
    expect(toMessage({ role: 'user', content: [{ text: '' }] }).content).toEqual([{ text: '' }]);
    expect(() => toMessage({ role: 'user', content: [{}] })).toThrow(
      /exactly one of text, image, file, audio, video \(got none\)/,
    );
    expect(() => toMessage({ role: 'user', content: [{ text: 'a', image: 'b.png' }] })).toThrow(/got text, image/);
    expect(() => toMessage({ role: 'user', content: [{ file: '' }] })).toThrow(/got none/);
  });

  it('normalises null content to an empty string and drops null fields', () => {
    const msg = toMessage({
      role: 'assistant',
      content: null,
      name: null,
      reasoning_content: null,
      function_call: { name: 'f', arguments: '{}' },
      whatever: 1,
    });
    expect(msg).toEqual({ role: 'assistant', content: '', function_call: { name: 'f', arguments: '{}' } });
    expect(JSON.stringify(serializeMessage({ role: 'user', content: 'hi', name: undefined }))).toBe(
      '{"role":"user","content":"hi"}',
    );
  });

  it("detects 'zh' only from CJK in system or user messages", () => {
    expect(detectLang([{ role: 'user', content: 'hello' }])).toBe('en');
    expect(detectLang([{ role: 'user', content: '你好' }])).toBe('zh');
    expect(detectLang([{ role: 'system', content: [{ text: '中文' }] }])).toBe('zh');
    expect(
      detectLang([
        { role: 'assistant', content: '你好' },
        { role: 'user', content: 'hi' },
      ]),
    ).toBe('en');
  });
});
