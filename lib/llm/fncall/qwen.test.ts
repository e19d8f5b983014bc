import { describe, expect, it } from 'vitest';
import type { FunctionDef, Message } from '../schema';
import { describeQwenTool, qwenFormat, stripPartialMarker, trimArgsTail } from './qwen';
import type { RenderOptions } from './types';

const weather: FunctionDef = {
  name: 'get_weather',
  description: 'Weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};
const code: FunctionDef = {
  name: 'code_interpreter',
  description: 'Runs Python.',
  parameters: { type: 'object', properties: {} },
};
const auto: RenderOptions = { lang: 'en', parallelFunctionCalls: false, functionChoice: 'auto' };

function call(name: string, args: string, id: string): Message {
  return { role: 'assistant', content: '', function_call: { name, arguments: args }, extra: { function_id: id } };
}
function result(name: string, content: string): Message {
  return { role: 'function', name, content };
}

describe('qwen render', () => {
  it('describes each tool with the upstream layout', () => {
    expect(describeQwenTool(weather, 'en')).toBe(
      '### get_weather\n\nget_weather: Weather for a city. Parameters: {"type": "object", "properties": {"city": {"type": "string"}}} The input must be a JSON object.',
    );
    expect(describeQwenTool({ ...weather, name_for_human: 'Weather', args_format: '' } as FunctionDef, 'zh')).toBe(
      '### Weather\n\nget_weather: Weather for a city. 输入参数：{"type": "object", "properties": {"city": {"type": "string"}}}',
    );
    expect(describeQwenTool(code, 'en')).toMatch(/```/);
  });

  it('lists the four markers, one per line, in the single-call and the parallel variants', () => {
    const single = qwenFormat.render([{ role: 'user', content: 'q' }], [weather, code], auto)[0]!.content as string;
    expect(single.startsWith('# Tools\n\n')).toBe(true);
    const markerLines = single
      .split('\n')
      .filter((l) => l.startsWith('✿'))
      .map((l) => l.slice(0, l.indexOf(':')));
    expect(markerLines).toEqual(['✿FUNCTION✿', '✿ARGS✿', '✿RESULT✿', '✿RETURN✿']);
    expect(single).toContain('[get_weather,code_interpreter]');

    const parallel = qwenFormat.render([{ role: 'user', content: 'q' }], [weather], {
      ...auto,
      parallelFunctionCalls: true,
    })[0]!.content as string;
    const lines = parallel.split('\n').filter((l) => l.startsWith('✿') || l === '...');
    expect(lines.map((l) => (l === '...' ? l : l.slice(0, l.indexOf(':'))))).toEqual([
      '✿FUNCTION✿',
      '✿ARGS✿',
      '✿FUNCTION✿',
      '✿ARGS✿',
      '...',
      '✿FUNCTION✿',
      '✿ARGS✿',
      '✿RESULT✿',
      '✿RESULT✿',
      '...',
      '✿RESULT✿',
      '✿RETURN✿',
    ]);
  });

  it('puts calls and results in one assistant message and folds it into the user turn for continuation', () => {
    const out = qwenFormat.render(
      [
        { role: 'system', content: 'Sys.' },
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: 'Checking.' },
        call('get_weather', '{"city": "Rome"}', '1'),
        call('get_weather', '{"city": "Oslo"}', '2'),
        result('get_weather', 'sunny'),
        result('get_weather', 'snow'),
      ],
      [weather],
      { ...auto, parallelFunctionCalls: true },
    );
    expect(out).toHaveLength(2);
    expect((out[0]!.content as string).startsWith('Sys.\n\n# Tools')).toBe(true);
    expect(out[1]).toEqual({
      role: 'user',
      content:
        'Weather?\n\nChecking.\n✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Rome"}\n✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Oslo"}' +
        '\n✿RESULT✿: sunny\n✿RESULT✿: snow\n✿RETURN✿',
    });
  });

  it('keeps a finished multi-step turn as one assistant message', () => {
    const out = qwenFormat.render(
      [
        { role: 'user', content: 'q1' },
        call('code_interpreter', '```py\nprint(1)\n```', '1'),
        result('code_interpreter', '1'),
        { role: 'assistant', content: 'It printed 1.' },
        { role: 'user', content: 'q2' },
      ],
      [code],
      auto,
    );
    expect(out.slice(1)).toEqual([
      { role: 'user', content: 'q1' },
      {
        role: 'assistant',
        content: '✿FUNCTION✿: code_interpreter\n✿ARGS✿: \n```py\nprint(1)\n```\n✿RESULT✿: 1\n✿RETURN✿: It printed 1.',
      },
      { role: 'user', content: 'q2' },
    ]);
  });

  it('pre-fills the forced tool name', () => {
    const fresh = qwenFormat.render([{ role: 'user', content: 'q' }], [weather], {
      ...auto,
      functionChoice: 'get_weather',
    });
    expect(fresh.at(-1)).toEqual({ role: 'user', content: 'q\n\n✿FUNCTION✿: get_weather' });
    const after = qwenFormat.render(
      [{ role: 'user', content: 'q' }, call('get_weather', '{}', '1'), result('get_weather', 'ok')],
      [weather],
      { ...auto, functionChoice: 'get_weather' },
    );
    expect(after.at(-1)!.content).toBe(
      'q\n\n✿FUNCTION✿: get_weather\n✿ARGS✿: {}\n✿RESULT✿: ok\n✿RETURN✿: \n✿FUNCTION✿: get_weather',
    );
  });

  it('rejects a forced tool that does not exist', () => {
    expect(() =>
      qwenFormat.render([{ role: 'user', content: 'q' }], [weather], { ...auto, functionChoice: 'nope' }),
    ).toThrow(/nope/);
  });

  it("uses plain text for functionChoice 'none'", () => {
    const out = qwenFormat.render(
      [{ role: 'user', content: '天气？' }, call('get_weather', '{"city": "北京"}', '1'), result('get_weather', '')],
      [weather],
      { ...auto, lang: 'zh', functionChoice: 'none' },
    );
    expect(out).toHaveLength(1);
    expect(out[0]!.content).not.toContain('✿');
    expect(out[0]!.content).toContain('{"city": "北京"}');
    expect(out[0]!.content).toContain('无结果。');
  });
});

describe('qwen parse', () => {
  const par = { parallelFunctionCalls: true };

  it('strips the continuation colon and splits text and calls, always setting function ids', () => {
    const r = qwenFormat.parse(
      ': Let me check.\n✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "北京"}\n✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Oslo"}',
      par,
    );
    expect(r.messages).toEqual([
      { role: 'assistant', content: 'Let me check.' },
      call('get_weather', '{"city": "北京"}', '1'),
      call('get_weather', '{"city": "Oslo"}', '2'),
    ]);
  });

  it('returns a plain answer after ✿RETURN✿ continuation', () => {
    expect(qwenFormat.parse(': The weather is sunny.', par).messages).toEqual([
      { role: 'assistant', content: 'The weather is sunny.' },
    ]);
  });

  it('makes one call per ✿ARGS✿ segment under a single ✿FUNCTION✿', () => {
    const r = qwenFormat.parse('✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "A"}\n✿ARGS✿: {"city": "B"}', par);
    expect(r.messages.map((m) => m.function_call?.arguments)).toEqual(['{"city": "A"}', '{"city": "B"}']);
  });

  it('keeps only the first call when parallel calls are off', () => {
    const r = qwenFormat.parse('✿FUNCTION✿: a\n✿ARGS✿: {}\n✿FUNCTION✿: b\n✿ARGS✿: {}', {
      parallelFunctionCalls: false,
    });
    expect(r.messages).toEqual([call('a', '{}', '1')]);
    expect(r.errors).toHaveLength(1);
  });

  it('trims junk after JSON or code arguments', () => {
    const r = qwenFormat.parse('✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Rome"} <!-- note -->', par);
    expect(r.messages[0]!.function_call!.arguments).toBe('{"city": "Rome"}');
    expect(trimArgsTail('```py\nprint(1)\n``` done')).toBe('```py\nprint(1)\n```');
  });

  it('removes partial markers left by streaming', () => {
    expect(qwenFormat.parse('Thinking ✿FUN', par).messages).toEqual([{ role: 'assistant', content: 'Thinking' }]);
    const r = qwenFormat.parse('✿FUNCTION✿: get_weather\n✿AR', par);
    expect(r.messages).toEqual([call('get_weather', '', '1')]);
    expect(stripPartialMarker('x\n✿RESULT✿')).toBe('x');
  });

  it('discards a hallucinated result if the stop word was not applied', () => {
    const r = qwenFormat.parse('✿FUNCTION✿: a\n✿ARGS✿: {}\n✿RESULT✿: fake\n✿RETURN✿: fake answer', par);
    expect(r.messages).toEqual([call('a', '{}', '1')]);
    expect(r.errors).toHaveLength(1);
  });

  it('restores the pre-filled name for a forced call', () => {
    const r = qwenFormat.parse('\n✿ARGS✿: {"city": "Rome"}', {
      parallelFunctionCalls: false,
      functionChoice: 'get_weather',
    });
    expect(r.messages).toEqual([call('get_weather', '{"city": "Rome"}', '1')]);
  });

  it('declares its stop words and start marker', () => {
    expect(qwenFormat.stopWords).toEqual(['✿RESULT✿', '✿RETURN✿']);
    expect(qwenFormat.toolStartMarker).toBe('✿FUNCTION✿');
  });
});
