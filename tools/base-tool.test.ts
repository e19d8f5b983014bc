import { describe, expect, it } from 'vitest';
import { BaseTool } from './base-tool';
import { ToolArgumentsError } from './errors';

class Echo extends BaseTool {
  name = 'echo';
  description = 'Echo the text.';
  parameters = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
  async call(params: string) {
    return this.parseArgs<{ text: string }>(params).text;
  }
}

describe('BaseTool', () => {
  it('stores cfg and exposes name, description and parameters as `function`', () => {
    const tool = new Echo({ name_for_human: 'Echo!' });
    expect(tool.cfg).toEqual({ name_for_human: 'Echo!' });
    expect(tool.function).toEqual({ name: 'echo', description: 'Echo the text.', parameters: tool.parameters });
    expect(tool.nameForHuman).toBe('Echo!');
    expect(tool.fileAccess).toBe(false);
  });

  it('parses arguments leniently inside call()', async () => {
    expect(await (new Echo() as BaseTool).call("{'text': 'hi',}", { files: [], lang: 'en', messages: [] })).toBe('hi');
    expect(() => new Echo().parseArgs('nope')).toThrow(ToolArgumentsError);
  });

  it('picks the argument-format sentence by the language of the tool metadata', () => {
    const zh = new Echo();
    zh.description = '回显文本';
    expect(new Echo().argsFormat).toMatch(/JSON object/);
    expect(zh.argsFormat).toMatch(/JSON 对象/);
    expect(new Echo({ args_format: 'custom' }).argsFormat).toBe('custom');
  });
});
