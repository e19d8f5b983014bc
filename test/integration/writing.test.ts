// ArticleAgent, WriteFromScratch and the writing steps over real HTTP to the scripted model server: the document
// search, then the steps' prompts in upstream's order (summary, outline, one section per Roman-numeral heading, or
// the continuation), each a model call of the run, with a heading message before each step.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AgentEventSchema,
  ArticleAgent,
  ContinueWriting,
  ExpandWriting,
  foldEvents,
  OutlineWriting,
  WriteFromScratch,
} from '../../lib/agent';
import { foldInspection } from '../../lib/inspect/fold';
import { createChatModel } from '../../lib/llm';
import { messageText } from '../../scripts/model-server/script';
import { localDocumentsForEachTest } from '../support/local-documents';
import { collectEvents, ofType } from '../support/run';

let guide: string;

const env = localDocumentsForEachTest('writing-');
beforeEach(async () => {
  guide = path.join(env.dir, 'bees.md');
  await writeFile(
    guide,
    [
      'Honey bees live in colonies of up to sixty thousand workers and one queen.',
      'Workers forage for nectar and pollen within about three kilometres of the hive.',
      'Beekeepers inspect their hives every week in spring to spot swarming early.',
    ].join('\n\n'),
  );
});

const llm = () => createChatModel({ model: 'scripted', baseURL: env.server.url, apiKey: 'k' });

/** Each request's messages as [role, text] pairs. */
function asked(i: number): [string, string][] {
  return (env.server.requests[i]!.body.messages as { role: string; content: unknown }[]).map((m) => [
    m.role,
    messageText(m.content),
  ]);
}
const lastOf = (i: number) => asked(i).at(-1)![1];

const OUTLINE = 'I. How a colony lives\n  - the queen\nII. Foraging\nIII. Keeping bees';

describe('ArticleAgent', () => {
  it('writes a whole article after /title: summary, outline, then one section per heading, in order', async () => {
    env.server.setScenario({
      replies: [
        { content: 'Bees live in large colonies, forage nearby and need weekly care.' },
        { content: OUTLINE },
        { content: 'I. How a colony lives\nA colony has one queen.' },
        { content: 'II. Foraging\nWorkers fly up to three kilometres.' },
        { content: 'III. Keeping bees\nInspect weekly in spring.' },
      ],
    });
    const agent = new ArticleAgent({ llm: llm() });
    const events = await collectEvents(
      agent.runEvents([{ role: 'user', content: [{ text: '/title A short guide to bees' }, { file: guide }] }]),
    );
    for (const e of events) expect(() => AgentEventSchema.parse(e)).not.toThrow();
    expect(env.server.requests).toHaveLength(5);

    // The documents were searched for the title (without the command), before any model call.
    const [search] = ofType(events, 'retrieval');
    expect(search).toMatchObject({ by: 'assistant', query: 'A short guide to bees', iteration: 0 });

    // 1. The summary: the passages as the system message, upstream's request as the user message.
    const summary = asked(0);
    expect(summary[0]![0]).toBe('system');
    expect(summary[0]![1]).toContain('## The content from [file](bees.md):');
    expect(summary[0]![1]).toContain('sixty thousand workers');
    expect(summary[1]).toEqual(['user', 'Summarize the main points of the reference material.']);
    // 2. The outline: from the summary, for the title.
    expect(lastOf(1)).toContain(
      '# Reference material\nBees live in large colonies, forage nearby and need weekly care.',
    );
    expect(lastOf(1)).toContain('# Title\nA short guide to bees');
    expect(lastOf(1)).toContain('Roman numerals');
    // 3. A section per first-level heading (not the "- the queen" line), from the passages, told where to stop.
    for (const [i, heading, next] of [
      [2, 'I. How a colony lives', 'II. Foraging'],
      [3, 'II. Foraging', 'III. Keeping bees'],
      [4, 'III. Keeping bees', ''],
    ] as const) {
      const prompt = lastOf(i);
      expect(prompt).toContain(`# Outline\n${OUTLINE}`);
      expect(prompt).toContain(`heading number ${i - 1}: ${heading}`);
      expect(prompt).toContain('Workers forage for nectar');
      if (next) expect(prompt.endsWith(` Stop before you reach ${next}`)).toBe(true);
      else expect(prompt).not.toContain('Stop before you reach');
    }

    // The messages: a heading message before each step, each step's text its own message, as upstream yields.
    const messages = foldEvents(events);
    expect(messages.every((m) => m.role === 'assistant')).toBe(true);
    expect(messages.map((m) => m.content)).toEqual([
      expect.stringMatching(
        /^>\n> Relevant passages found: \n# Knowledge Base\n\n## The content from \[file\]\(bees\.md\)/,
      ),
      '>\n> The plan (the default one): 1. summarize the reference material, 2. write an outline, 3. write the text, one section for each heading of the outline.\n',
      '>\n> Summary of the reference material: \n',
      'Bees live in large colonies, forage nearby and need weekly care.',
      '>\n> The outline: \n',
      OUTLINE,
      '>\n> The text: \n',
      '>\n# ',
      'I. How a colony lives\nA colony has one queen.',
      '>\n# ',
      'II. Foraging\nWorkers fly up to three kilometres.',
      '>\n# ',
      'III. Keeping bees\nInspect weekly in spring.',
    ]);
    expect(ofType(events, 'run-end')[0]).toMatchObject({ reason: 'answered', llmCalls: 5 });
    // The inspector shows the five model calls, each with what its model wrote (the headings are the agent's).
    const inspected = foldInspection(events).iterations;
    expect(inspected.map((it) => it.n)).toEqual([1, 2, 3, 4, 5]);
    expect(inspected[1]!.response.shownText).toBe(OUTLINE);
    expect(ofType(events, 'run-start')[0]).toMatchObject({ kind: 'article', agent: 'ArticleAgent' });
  });

  it('says why no text follows when the outline has no Roman-numeral headings, in the run’s language', async () => {
    // Upstream expands only the lines that open with a Roman numeral; this outline numbers its headings 1., 2.
    env.server.setScenario({ replies: [{ content: 'Summary.' }, { content: '1. Colonies\n2. Foraging' }] });
    const messages = await new ArticleAgent({ llm: llm() }).runNonStream([
      { role: 'user', content: '/title A short guide to bees' },
    ]);
    expect(env.server.requests).toHaveLength(2); // no section was asked for
    expect(messages.map((m) => m.content).slice(-3)).toEqual([
      '>\n> The outline: \n',
      '1. Colonies\n2. Foraging',
      '>\n> No text was written: only headings numbered with Roman numerals (I., II., …) are written out, and the outline has none. Try again for a new outline.\n',
    ]);
    env.server.setScenario({ replies: [{ content: '摘要' }, { content: '一、蜂群\n二、采蜜' }] });
    const zh = await new WriteFromScratch({ llm: llm() }).runNonStream([{ role: 'user', content: '蜜蜂简介' }]);
    expect(zh.at(-1)!.content).toBe(
      '>\n> 没有写正文：正文只按用罗马数字（I.、II.、…）编号的标题逐节写出，而这份大纲没有这样的标题。请重试以生成新的大纲。\n',
    );
    expect(zh.map((m) => m.content)).not.toContain('>\n> 正文：\n');
  });

  it('continues the text of the last message from the documents by default', async () => {
    env.server.setScenario({ replies: [{ content: 'They also dance to tell each other where the flowers are.' }] });
    const messages = await new ArticleAgent({ llm: llm() }).runNonStream([
      { role: 'user', content: [{ text: 'Honey bees are social insects.' }, { file: guide }] },
    ]);
    expect(env.server.requests).toHaveLength(1);
    const prompt = lastOf(0);
    expect(prompt).toContain('Continue the text below');
    expect(prompt).toContain('# The text so far\nHoney bees are social insects.');
    expect(prompt).toContain('Workers forage for nectar');
    expect(messages.map((m) => m.content)).toEqual([
      expect.stringMatching(/^>\n> Relevant passages found: \n/),
      '>\n> The text: \n',
      'They also dance to tell each other where the flowers are.',
    ]);
    expect(messages.every((m) => m.role === 'assistant' && m.name === 'ArticleAgent')).toBe(true);
  });
});

describe('the writing steps on their own', () => {
  it('OutlineWriting, ExpandWriting and ContinueWriting each make one call with their prompt', async () => {
    env.server.setScenario({ fallback: { content: 'ok' } });
    const question = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'Bees' },
    ];
    const outline = await new OutlineWriting({ llm: llm(), knowledge: 'Bees make honey.' }).runNonStream(question);
    expect(outline).toEqual([{ role: 'assistant', content: 'ok', name: 'OutlineWriting' }]);
    expect(asked(0)[0]).toEqual(['system', 'Be brief.']); // the conversation stays; only the last message changes
    expect(lastOf(0)).toContain('# Reference material\nBees make honey.\n\n# Title\nBees');

    await new ExpandWriting({
      llm: llm(),
      knowledge: 'Bees make honey.',
      outline: 'I. Honey\nII. Wax',
      index: 2,
      capture: 'II. Wax',
    }).runNonStream(question);
    expect(lastOf(1)).toContain('heading number 2: II. Wax');
    expect(lastOf(1)).not.toContain('Stop before');

    await new ContinueWriting({ llm: llm() }).runNonStream([{ role: 'user', content: '蜜蜂是群居的昆虫。' }]);
    expect(lastOf(2)).toContain('请依据参考资料，接着下面的文字往下写。');
    expect(lastOf(2)).toContain('# 已有的文字\n蜜蜂是群居的昆虫。');
  });

  it('WriteFromScratch writes from the knowledge it is given, its headings in Chinese for a Chinese title', async () => {
    env.server.setScenario({
      replies: [{ content: '摘要' }, { content: 'I. 蜂群\nII. 采蜜' }, { content: '第一节' }, { content: '第二节' }],
    });
    const messages = await new WriteFromScratch({ llm: llm(), knowledge: '蜜蜂生活在蜂群中。' }).runNonStream([
      { role: 'user', content: '蜜蜂简介' },
    ]);
    expect(asked(0)).toEqual([
      ['system', '蜜蜂生活在蜂群中。'],
      ['user', '总结参考资料的主要内容。'],
    ]);
    expect(lastOf(2)).toContain('现在请写第 1 个一级标题下的章节：I. 蜂群');
    expect(lastOf(2).endsWith('写到 II. 采蜜 之前请停下。')).toBe(true);
    expect(messages.map((m) => m.content)).toEqual([
      '>\n> 写作计划（默认计划）：1. 总结参考资料；2. 写大纲；3. 按大纲的每个标题逐节写正文。\n',
      '>\n> 参考资料摘要：\n',
      '摘要',
      '>\n> 大纲：\n',
      'I. 蜂群\nII. 采蜜',
      '>\n> 正文：\n',
      '>\n# ',
      '第一节',
      '>\n# ',
      '第二节',
    ]);
  });
});
