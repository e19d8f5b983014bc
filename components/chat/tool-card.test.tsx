import { describe, expect, it } from 'vitest';
import { foldRun, markInterrupted, type ToolBlock } from '../../lib/chat/view';
import { ToolCard } from './tool-card';
import { buttons, elementById, render, textOf } from './test-html';

const block = (over: Partial<ToolBlock> = {}): ToolBlock => ({
  kind: 'tool',
  id: 'tool-1-1',
  iteration: 1,
  functionId: '1',
  name: 'calculator',
  arguments: '{"expression": "2+3"}',
  status: 'done',
  result: '5',
  durationMs: 12,
  ...over,
});

function header(html: string) {
  const all = buttons(html);
  const first = all[0];
  if (!first) throw new Error('no button rendered');
  return first;
}

describe('ToolCard', () => {
  it('has a header button named with the tool, argument summary, status and duration', () => {
    const html = render(<ToolCard block={block()} />);
    const b = header(html);
    expect(b.name).toBe('calculator expression: "2+3" done 12 ms');
    expect(b.attrs.type).toBe('button');
    expect(b.inner).not.toMatch(/<(button|a|input)\b/);
  });

  it("sums up code_interpreter's call as its code's lines: no JSON escapes, no markdown fences", () => {
    const code = 'import math\nprint(math.pi)';
    for (const args of [JSON.stringify({ code }), '```py\n' + code + '\n```']) {
      const name = header(render(<ToolCard block={block({ name: 'code_interpreter', arguments: args })} />)).name;
      expect(name).toBe('code_interpreter import math; print(math.pi) done 12 ms');
    }
  });

  it('is folded by default: aria-expanded false, and the panel it controls is hidden and empty', () => {
    const html = render(<ToolCard block={block()} />);
    const b = header(html);
    expect(b.attrs['aria-expanded']).toBe('false');
    const panel = elementById(html, b.attrs['aria-controls'] ?? '');
    expect(panel?.attrs.hidden).toBe('');
    expect(panel?.rest.startsWith('</div>')).toBe(true);
  });

  it('shows a spinner while running, no duration until done, and the queued state', () => {
    const running = render(<ToolCard block={block({ status: 'running', result: undefined, durationMs: undefined })} />);
    expect(header(running).name).toBe('calculator expression: "2+3" running');
    expect(header(running).inner).toMatch(/<svg aria-hidden="true"[^>]*animate-spin/);
    const queued = render(<ToolCard block={block({ status: 'queued', result: undefined, durationMs: undefined })} />);
    expect(header(queued).name).toBe('calculator expression: "2+3" queued');
    expect(header(queued).inner).not.toContain('animate-spin');
  });

  it('cuts a long argument summary to about 80 characters', () => {
    const html = render(<ToolCard block={block({ arguments: JSON.stringify({ q: 'x'.repeat(500) }) })} />);
    const summary = header(html)
      .name.replace(/^calculator /, '')
      .replace(/ done 12 ms$/, '');
    expect(Array.from(summary)).toHaveLength(80);
  });

  it('expanded: pretty, highlighted JSON arguments and the result text', () => {
    const html = render(<ToolCard block={block({ result: 'Sum is 5\n  (exact)' })} defaultOpen />);
    expect(header(html).attrs['aria-expanded']).toBe('true');
    const panel = elementById(html, header(html).attrs['aria-controls'] ?? '');
    expect(panel?.attrs.hidden).toBeUndefined();
    expect(textOf(html)).toContain('Arguments');
    expect(html).toContain('<code class="hljs language-json">');
    expect(html).toContain('<span class="hljs-attr">&quot;expression&quot;</span>');
    expect(textOf(html)).toContain('Result Sum is 5 (exact)');
    expect(html).toContain('Sum is 5\n  (exact)</pre>');
  });

  it('expanded: arguments that are not JSON are shown raw', () => {
    const html = render(<ToolCard block={block({ arguments: '{"expression": 2+' })} defaultOpen />);
    expect(html).not.toContain('language-json');
    expect(html).toContain('{&quot;expression&quot;: 2+</pre>');
  });

  it("expanded: content-item results show text and the app's images with alt text; another site's waits for a click", () => {
    const html = render(
      <ToolCard
        block={block({
          name: 'image_gen',
          result: [{ text: 'here' }, { image: '/api/images/a.png' }, { image: 'https://x.org/a.png' }],
        })}
        defaultOpen
      />,
    );
    expect(html).toContain('>here</pre>');
    expect(html).toMatch(/<img src="\/api\/images\/a.png" alt="Image 2 returned by the tool"/);
    expect(html).not.toContain('src="https://x.org');
    expect(buttons(html).map((b) => b.name)).toContain('Load image from x.org');
  });

  it('on error, shows the exact text the model was given under "Error returned to the model"', () => {
    const error = 'Invalid arguments for calculator: expression is required.\nYou sent: {"expr": "2+3"}';
    const html = render(
      <ToolCard
        block={block({
          status: 'error',
          arguments: '{"expr": "2+3"}',
          result: error,
          error: { kind: 'invalid-arguments', message: 'expression is required', type: 'ToolArgumentsError' },
        })}
        defaultOpen
      />,
    );
    expect(header(html).name).toBe('calculator expr: "2+3" error 12 ms');
    expect(textOf(html)).toContain('Error returned to the model');
    expect(html).toContain(
      'Invalid arguments for calculator: expression is required.\nYou sent: {&quot;expr&quot;: &quot;2+3&quot;}</pre>',
    );
    expect(textOf(html)).toContain('ToolArgumentsError (arguments refused)');
    expect(textOf(html)).not.toMatch(/\bResult\b/);
    // How it failed is said in the page's language, not as the internal kind.
    const zh = render(
      <ToolCard
        block={block({
          status: 'error',
          result: error,
          error: { kind: 'exception', message: 'boom', type: 'TypeError' },
        })}
        defaultOpen
      />,
      'zh-CN',
    );
    expect(textOf(zh)).toContain('TypeError (工具出错)');
    expect(textOf(zh)).not.toContain('exception');
  });

  it('a call the run never finished says it was not run, not that the model got an error', () => {
    const html = render(
      <ToolCard
        block={block({
          status: 'error',
          result: undefined,
          durationMs: undefined,
          error: {
            kind: 'not-run',
            message: 'The run ended before this call started; it was not run.',
            type: 'NotRun',
          },
        })}
        defaultOpen
      />,
    );
    expect(textOf(html)).toContain('Not run The run ended before this call started; it was not run.');
    expect(textOf(html)).not.toContain('Error returned to the model');
  });

  it("code_interpreter: the code highlighted as Python, the output's Markdown drawn as an answer's", () => {
    const html = render(
      <ToolCard
        block={block({
          name: 'code_interpreter',
          arguments: JSON.stringify({ code: 'import math\nprint(math.pi)' }),
          result: 'stdout:\n\n```\n3.14159\n```\n\n![fig-001](/static/fig-001.png)\n\n<b>raw</b>',
        })}
        defaultOpen
      />,
    );
    expect(textOf(html)).toContain('Code');
    expect(html).toContain('<code class="hljs language-python"><span class="hljs-keyword">import</span> math');
    // Each section a code block of its own: no fences shown as text.
    expect(html).toMatch(/<pre tabindex="0"[^>]*><code>3.14159\n<\/code><\/pre>/);
    expect(textOf(html)).not.toContain('```');
    expect(html).toMatch(/<img src="\/static\/fig-001.png" alt="fig-001"/);
    // Tool output is untrusted: raw HTML is text, as in an answer.
    expect(html).not.toContain('<b>raw</b>');
    expect(textOf(html)).toContain('<b>raw</b>');
  });

  it('code_interpreter: code that raised shows as failed, its traceback a code block under what the model got', () => {
    const result =
      'error:\n\n```\nTraceback (most recent call last):\n  File "<code>", line 1, in <module>\nZeroDivisionError: division by zero\n```';
    const html = render(
      <ToolCard
        block={block({
          name: 'code_interpreter',
          arguments: JSON.stringify({ code: 'x = 1/0' }),
          status: 'error',
          result,
          error: { kind: 'failed', type: 'ZeroDivisionError', message: 'ZeroDivisionError: division by zero' },
        })}
        defaultOpen
      />,
    );
    expect(header(html).name).toBe('code_interpreter x = 1/0 error 12 ms');
    expect(textOf(html)).toContain('Error returned to the model');
    expect(html).toMatch(/<pre tabindex="0"[^>]*><code>Traceback \(most recent call last\):/);
    expect(textOf(html)).not.toContain('```');
    expect(textOf(html)).toContain('ZeroDivisionError (the tool reported a failure)');
  });

  it('a call stopped while it ran says so, with what the model was told, not that it was not run', () => {
    const told =
      'The run was stopped while this call was running; it did not finish. The interpreter was restarted: variables and imports are gone; files in the working directory remain.';
    const html = render(
      <ToolCard
        block={block({
          name: 'code_interpreter',
          arguments: JSON.stringify({ code: 'while True: pass' }),
          status: 'stopped',
          result: told,
          error: { kind: 'stopped', type: 'Stopped', message: told },
        })}
        defaultOpen
      />,
    );
    expect(header(html).name).toBe('code_interpreter while True: pass stopped 12 ms');
    expect(textOf(html)).toContain(`Stopped while running ${told}`);
    expect(textOf(html)).not.toContain('Not run');
    expect(textOf(html)).not.toContain('Error returned to the model');
  });

  it('a call that was running when the server stopped says it was interrupted, in English and Chinese', () => {
    // As the page folds a run its server lost: the call had started (running), then the run was marked interrupted.
    const view = foldRun('r', [
      {
        type: 'tool-call',
        iteration: 1,
        t: 1,
        functionId: '1',
        name: 'calculator',
        arguments: '{"expression": "2+3"}',
      },
    ]);
    markInterrupted(view);
    const card = view.blocks[0] as ToolBlock;
    const html = render(<ToolCard block={card} defaultOpen />);
    expect(header(html).name).toBe('calculator expression: "2+3" interrupted');
    expect(textOf(html)).toContain(
      'Interrupted while running The server stopped while this call was running; it has no result.',
    );
    expect(textOf(html)).not.toContain('Not run');
    const zh = render(<ToolCard block={card} defaultOpen />, 'zh-CN');
    expect(header(zh).name).toBe('calculator expression: "2+3" 已中断');
    expect(textOf(zh)).toContain('运行中被中断 这次调用运行时，服务器停止了；它没有结果。');
    expect(textOf(zh)).not.toContain('未运行');
  });

  it('code_interpreter: files it wrote are download links; raster images are shown on the card', () => {
    const html = render(
      <ToolCard
        block={block({
          name: 'code_interpreter',
          arguments: JSON.stringify({ code: 'save()' }),
          result: 'Finished execution.',
          files: [
            { name: 'plot.png', url: '/api/artifacts/c1/plot.png', mime: 'image/png', bytes: 2048 },
            { name: 'out/data.csv', url: '/api/artifacts/c1/out/data.csv', mime: 'text/csv', bytes: 12 },
            { name: 'logo.svg', url: '/api/artifacts/c1/logo.svg', mime: 'image/svg+xml', bytes: 90 },
          ],
        })}
        defaultOpen
      />,
    );
    expect(html).toContain('aria-label="Files written"');
    expect(html).toContain('<a href="/api/artifacts/c1/plot.png" download="plot.png"');
    expect(html).toContain('<a href="/api/artifacts/c1/out/data.csv" download="data.csv"');
    expect(textOf(html)).toContain('plot.png (2 KB)');
    expect(textOf(html)).toContain('out/data.csv (12 B)');
    expect(html.match(/<img src="\/api\/artifacts\/c1\/plot.png" alt="plot.png"/g)).toHaveLength(1);
    expect(html).not.toMatch(/<img src="\/api\/artifacts\/c1\/logo.svg"/);
  });

  it('images a tool produced are on the card while it is folded, each a button that opens it full size', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const folded = render(
      <ToolCard
        block={block({
          name: 'code_interpreter',
          result: 'Finished execution.',
          files: [{ name: 'figure-1.png', url: '/api/artifacts/c1/figure-1.png', mime: 'image/png', bytes: 9 }],
        })}
      />,
    );
    expect(folded).toContain('aria-label="Images"');
    const open = buttons(folded).find((b) => b.attrs['aria-label'] === 'Open figure-1.png full size');
    expect(open?.inner).toMatch(/<img src="\/api\/artifacts\/c1\/figure-1.png" alt="figure-1.png"/);

    // An MCP image result: on the card, and not a second time in the opened result.
    const mcp = render(
      <ToolCard
        block={block({ name: 'shots__take', result: [{ text: '[image: image/png, 8 bytes]' }, { image: png }] })}
        defaultOpen
      />,
    );
    expect(buttons(mcp).some((b) => b.attrs['aria-label'] === 'Open Image 2 returned by the tool full size')).toBe(
      true,
    );
    expect(mcp.split(`src="${png}"`)).toHaveLength(2);
    const zh = render(<ToolCard block={block({ name: 'shots__take', result: [{ image: png }] })} />, 'zh-CN');
    expect(zh).toContain('aria-label="图片"');
    expect(buttons(zh).some((b) => b.attrs['aria-label'] === '查看原图：工具返回的第 1 张图片')).toBe(true);
    expect(textOf(mcp)).toContain('[image: image/png, 8 bytes]');
    // A failed call shows no images, and neither do remote URLs on the card itself.
    expect(render(<ToolCard block={block({ status: 'error', result: [{ image: png }] })} />)).not.toContain('<img');
    expect(render(<ToolCard block={block({ result: [{ image: 'https://x.org/a.png' }] })} />)).not.toContain('<img');
  });
});
