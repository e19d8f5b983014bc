import { describe, expect, it } from 'vitest';
import { CodeBackendNote } from './code-backend-note';
import { render, textOf } from './test-html';

const install = 'apt-get install -y bubblewrap python3-numpy python3-pandas python3-matplotlib python3-openpyxl';
const note = (over: object, locale: 'en' | 'zh-CN' = 'en') =>
  textOf(
    render(
      <CodeBackendNote info={{ backend: 'python', requested: 'auto', python: '/usr/bin/python3', install, ...over }} />,
      locale,
    ),
  );

describe('the code_interpreter line in Settings', () => {
  it('says which backend runs and how to get the other', () => {
    expect(note({})).toBe(
      'code_interpreter runs CPython with numpy, pandas and matplotlib, sandboxed by bubblewrap. For Pyodide instead, set CODE_INTERPRETER_BACKEND=pyodide and restart the server.',
    );
    const fallback = note({ backend: 'pyodide', pythonProblem: 'bubblewrap (bwrap) is not installed' });
    expect(fallback).toContain('code_interpreter runs Pyodide: the standard library only.');
    expect(fallback).toContain(`install ${install} and restart the server.`);
    expect(fallback).toContain('Not available now: bubblewrap (bwrap) is not installed.');
    expect(note({ backend: 'pyodide', requested: 'pyodide' })).toContain('set CODE_INTERPRETER_BACKEND=auto');
  });

  it('says plainly when CPython was asked for and cannot run', () => {
    const broken = note({ requested: 'python', pythonProblem: '/usr/bin/python3 cannot import pandas' });
    expect(broken).toContain('cannot run here: /usr/bin/python3 cannot import pandas.');
    expect(broken).toContain('or set CODE_INTERPRETER_BACKEND=pyodide.');
  });

  it("says it in Chinese on a Chinese page, the install command and the server's reason as they are", () => {
    expect(note({}, 'zh-CN')).toBe(
      'code_interpreter 使用 CPython 运行，带 numpy、pandas 和 matplotlib，由 bubblewrap 提供沙箱。如果想改用 Pyodide，请设置 CODE_INTERPRETER_BACKEND=pyodide 并重启服务器。',
    );
    const fallback = note({ backend: 'pyodide', pythonProblem: 'bubblewrap (bwrap) is not installed' }, 'zh-CN');
    expect(fallback).toContain(`请安装 ${install} 并重启服务器。`);
    expect(fallback).toContain('目前无法使用：bubblewrap (bwrap) is not installed。');
  });
});

describe('the code_interpreter line for someone who is not the admin', () => {
  it('says what runs, without the server’s paths, variables or install command (in both languages)', () => {
    const en = textOf(render(<CodeBackendNote info={{ backend: 'python' }} />));
    expect(en).toBe('code_interpreter runs Python with numpy, pandas and matplotlib, in a sandbox.');
    const zh = textOf(render(<CodeBackendNote info={{ backend: 'pyodide' }} />, 'zh-CN'));
    expect(zh).toBe('code_interpreter 在沙箱中运行 Python（Pyodide），只有标准库。');
    for (const text of [en, zh]) expect(text).not.toMatch(/CODE_INTERPRETER_BACKEND|apt-get|\/usr\//);
  });
});
