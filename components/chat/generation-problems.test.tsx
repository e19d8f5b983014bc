import { describe, expect, it } from 'vitest';
import {
  GENERATION_RANGES,
  GenerationSettingsSchema,
  generationInputBounds,
  generationProblems,
} from '../../lib/protocol/generation-settings';
import { useGenerationProblemText } from './generation-problems';
import { render, textOf } from './test-html';

function Said({ cfg }: { cfg: Record<string, number> }) {
  return <p>{useGenerationProblemText().sayAll(cfg)}</p>;
}

describe('generation settings out of their ranges', () => {
  it('are found all at once, with the range of each, by the same check the schema refuses them with', () => {
    const cfg = { temperature: 99, top_p: 0.5, max_tokens: -5, seed: 7 };
    expect(generationProblems(cfg)).toEqual([
      { key: 'temperature', value: 99, min: 0, max: 2, integer: false },
      { key: 'max_tokens', value: -5, min: 1, integer: true },
    ]);
    expect(generationProblems({ max_tokens: 2.5 })).toMatchObject([{ key: 'max_tokens', integer: true }]);
    expect(generationProblems({ temperature: 2, top_p: 0, max_tokens: 1, seed: -1 })).toEqual([]);
    const refused = GenerationSettingsSchema.safeParse(cfg);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.path.join('.'))).toEqual(['temperature', 'max_tokens']);
  });

  it("give the page's inputs their min, max and step from the one table", () => {
    expect(generationInputBounds('temperature')).toEqual({ min: 0, max: 2, step: 0.1 });
    expect(generationInputBounds('top_p')).toEqual({ min: 0, max: 1, step: 0.05 });
    expect(generationInputBounds('max_tokens')).toEqual({ min: 1, step: 1 });
    expect(GENERATION_RANGES.max_tokens).toMatchObject({ integer: true });
  });

  it("are said in plain words in the page's language, every one, with the setting's name as the page shows it", () => {
    const cfg = { temperature: 99, max_tokens: -5 };
    expect(textOf(render(<Said cfg={cfg} />))).toBe(
      'Temperature must be between 0 and 2 (you entered 99). Max tokens must be a whole number of at least 1 (you entered -5).',
    );
    expect(textOf(render(<Said cfg={cfg} />, 'zh-CN'))).toBe(
      '温度必须在 0 到 2 之间（你输入的是 99）。 最大 token 数必须是不小于 1 的整数（你输入的是 -5）。',
    );
    expect(textOf(render(<Said cfg={{ top_p: 1.5, max_tokens: 131072 }} />))).toBe(
      'Top p must be between 0 and 1 (you entered 1.5).',
    );
  });
});
