import { describe, expect, it } from 'vitest';
import { createTool, runTool } from '.';
import './index'; // registers the builtin tools
import { extractCode } from './code-interpreter';

describe('extractCode (what upstream accepts as the code)', () => {
  it('reads {"code": ...} as JSON or JSON5, with the optional reset flag', () => {
    expect(extractCode('{"code": "print(1)"}')).toEqual({ code: 'print(1)' });
    expect(extractCode("{code: 'x = 1', reset: true}")).toEqual({ code: 'x = 1', reset: true });
  });

  it('takes the first fenced block, whatever its language tag', () => {
    expect(extractCode('Let me compute:\n```py\nprint(2)\n```\nthen\n```\nprint(3)\n```')).toEqual({
      code: 'print(2)\n',
    });
    expect(extractCode('```python\nimport math\nmath.pi\n```')).toEqual({ code: 'import math\nmath.pi\n' });
  });

  it('falls back to the whole text as code', () => {
    expect(extractCode('sum(range(10))')).toEqual({ code: 'sum(range(10))' });
    expect(extractCode('42')).toEqual({ code: '42' });
  });
});

describe('code_interpreter arguments through runTool', () => {
  const ctx = { files: [], lang: 'en' as const, messages: [], workDir: '/nonexistent-never-used' };

  it('an object without code is an argument error the model can read', async () => {
    const r = await runTool(createTool('code_interpreter'), '{"source": "print(1)"}', ctx);
    expect(r.ok).toBe(false);
    expect(r.content).toContain("missing required property 'code'");
  });

  it('empty code is refused with a hint, before any interpreter starts', async () => {
    const r = await runTool(createTool('code_interpreter'), '```py\n\n```', ctx);
    expect(r.ok).toBe(false);
    expect(r.content).toContain('There is no code to run');
  });

  it('asks for a Markdown code block in the ✿ template, like upstream', () => {
    expect(createTool('code_interpreter').argsFormat).toBe('The input for this tool should be a Markdown code block.');
  });
});
