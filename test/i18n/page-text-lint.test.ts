// The lint rule that keeps words out of components (eslint.config.mjs, pageTextRules): planted literals fail it,
// translations and punctuation pass. Runs the project's real ESLint config over text placed at a component's path.
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.join(__dirname, '../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

async function problems(jsx: string, file = 'components/chat/planted.tsx'): Promise<string[]> {
  const code = `export function Planted({ t, busy, n, error }: { t: (k: string) => string; busy: boolean; n: number; error?: string }) {\n  return (\n    <div>\n      ${jsx}\n    </div>\n  );\n}\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('words in components come from the catalog', () => {
  it.each([
    ['JSX text', '<button type="button">Send</button>'],
    ['a string child', "<p>{'Loading the run…'}</p>"],
    ['an accessible name', '<input aria-label="Message" />'],
    ['a placeholder', "<input placeholder={'Ask anything'} />"],
    ['a title', '<span title="Attach files" />'],
    ['alt text from a template', '<img src="/a.png" alt={`Figure ${n}`} />'],
    ['words chosen by a condition', "<span>{busy ? 'Saving…' : 'Save'}</span>"],
    ['words shown by a condition', "<p>{error && 'Failed'}</p>"],
    ['a name chosen by a condition', "<button type=\"button\" aria-label={busy ? 'Stop' : 'Send'} />"],
  ])('fails on %s', async (_what, jsx) => {
    expect(await problems(jsx)).not.toEqual([]);
  });

  it('passes translations, punctuation, class names and other attributes that are not text', async () => {
    const jsx = [
      "<button type=\"button\" aria-label={t('send')}>{t('send')}</button>",
      '<span className="flex gap-2 text-xs" data-role="user">·</span>',
      '<span>{n} ({n})</span>',
      '<input type="checkbox" id="box" />',
      "<span className={busy ? 'opacity-50' : 'opacity-100'}>{busy ? t('saving') : t('save')}</span>",
    ].join('\n      ');
    expect(await problems(jsx)).toEqual([]);
  });

  it('applies to pages in app/ too, not to tests', async () => {
    expect(await problems('<h1>Welcome</h1>', 'app/planted/page.tsx')).not.toEqual([]);
    expect(await problems('<h1>Welcome</h1>', 'components/chat/planted.test.tsx')).toEqual([]);
  });
});
