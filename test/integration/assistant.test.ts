// The Assistant over real HTTP against the scripted model server: the request the model gets carries the
// "# Knowledge Base" with the passage that answers the question, named by file and page; the run reports the search.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { Assistant, type AgentEvent } from '../../lib/agent';
import { messageText } from '../../scripts/model-server/script';
import { localDocumentsForEachTest } from '../support/local-documents';
import { collectEvents, ofType } from '../support/run';
import { createChatModel } from '../../lib/llm';

let handbook: string;

const env = localDocumentsForEachTest('assistant-');
beforeEach(async () => {
  handbook = path.join(env.dir, 'handbook.md');
  const sections = Array.from(
    { length: 80 },
    (_, i) => `Section ${i}: office routines, building access, meeting rooms and general administration.`,
  );
  sections.splice(57, 0, 'Parental leave: new parents receive sixteen weeks of paid parental leave.');
  await writeFile(handbook, sections.join('\n\n'));
});

const assistant = (extra: Partial<ConstructorParameters<typeof Assistant>[0]> = {}) =>
  new Assistant({
    llm: createChatModel({ model: 'scripted', baseURL: env.server.url, apiKey: 'k', fncallMode: 'native' }),
    ragCfg: { max_ref_token: 300, parser_page_size: 100 },
    ...extra,
  });

function systemText(body: { messages: { role: string; content: unknown }[] }): string {
  const system = body.messages.find((m) => m.role === 'system');
  return system ? messageText(system.content) : '';
}

describe('Assistant', () => {
  it('puts the passage that answers the question into the system message, with file and page', async () => {
    env.server.setScenario({ replies: [{ content: 'Sixteen weeks [handbook.md, page 1].' }] });
    const events = await collectEvents(
      assistant({ systemMessage: 'You answer HR questions.' }).runEvents([
        { role: 'user', content: [{ file: handbook }, { text: 'How long is parental leave?' }] },
      ]),
    );
    expect(ofType(events, 'run-end')[0]!.reason).toBe('answered');
    const system = systemText(env.server.requests[0]!.body);
    expect(
      system.startsWith('You answer HR questions.\n\n# Knowledge Base\n\n## The content from [file](handbook.md):'),
    ).toBe(true);
    expect(system).toContain('Parental leave: new parents receive sixteen weeks');
    expect(system).toMatch(/```\n\[page: 1\]\n/);
    // Only what fits the 300-token budget: most sections stay out.
    expect(system).not.toContain('Section 20:');
    // The model is told of the upload the way Qwen-Agent does.
    const user = env.server.requests[0]!.body.messages.find((m: { role: string }) => m.role === 'user');
    expect(messageText(user.content)).toContain('[file](handbook.md)');

    const [retrieval] = ofType(events, 'retrieval');
    expect(retrieval).toMatchObject({
      by: 'assistant',
      query: 'How long is parental leave?',
      mode: 'ranked',
      iteration: 0,
    });
    expect(retrieval!.terms).toEqual(['long', 'parent', 'leav']);
    const used = retrieval!.candidates.filter((c) => c.used);
    expect(used.some((c) => c.text.includes('Parental leave') && c.fileName === 'handbook.md' && c.page === 1)).toBe(
      true,
    );
    expect(retrieval!.usedTokens).toBeLessThanOrEqual(300);
    // The retrieval step comes before the model call.
    const order = events.map((e: AgentEvent) => e.type);
    expect(order.indexOf('retrieval')).toBeLessThan(order.indexOf('llm-start'));
  });

  it('adds a system message in Chinese for a Chinese question, and finds the Chinese passage', async () => {
    const zh = path.join(env.dir, '手册.txt');
    const paras = Array.from({ length: 60 }, (_, i) => `第${i}节：办公室日常事务、门禁和会议室的一般安排。`);
    paras.splice(33, 0, '年假规定：员工每年享有十五天带薪年假。');
    await writeFile(zh, paras.join('\n\n'));
    env.server.setScenario({ replies: [{ content: '十五天。' }] });
    await assistant().runNonStream([{ role: 'user', content: [{ file: zh }, { text: '员工的年假有几天？' }] }]);
    const messages = env.server.requests[0]!.body.messages as { role: string; content: unknown }[];
    expect(messages[0]!.role).toBe('system');
    const system = systemText(env.server.requests[0]!.body);
    expect(system.startsWith('# 知识库\n\n## 来自 [文件](手册.txt) 的内容：')).toBe(true);
    expect(system).toContain('年假规定：员工每年享有十五天带薪年假。');
  });

  it('says which file could not be read, and answers from the rest', async () => {
    const empty = path.join(env.dir, 'empty.txt');
    await writeFile(empty, '');
    env.server.setScenario({ replies: [{ content: 'ok' }] });
    const events = await collectEvents(
      assistant().runEvents([
        { role: 'user', content: [{ file: empty }, { file: handbook }, { text: 'parental leave' }] },
      ]),
    );
    const system = systemText(env.server.requests[0]!.body);
    expect(system).toContain('Parental leave');
    expect(system).toContain('## Files that could not be read:\n\n- empty.txt is empty (0 bytes).');
    expect(ofType(events, 'retrieval')[0]!.errors).toEqual(['empty.txt is empty (0 bytes).']);
  });

  it('without files runs as a FnCallAgent: no retrieval, no knowledge block', async () => {
    env.server.setScenario({ replies: [{ content: 'Hello.' }] });
    const events = await collectEvents(assistant().runEvents([{ role: 'user', content: 'Hi' }]));
    expect(ofType(events, 'retrieval')).toEqual([]);
    expect(JSON.stringify(env.server.requests[0]!.body.messages)).not.toContain('Knowledge Base');
    expect(ofType(events, 'run-start')[0]!.kind).toBe('assistant');
  });

  it('reports the retrieval tool search in the trace, tied to its call', async () => {
    env.server.setScenario({
      replies: [
        {
          toolCalls: [
            { id: 'call_r', name: 'retrieval', arguments: '{"query": "parental leave", "files": ["handbook.md"]}' },
          ],
        },
        { content: 'Sixteen weeks.' },
      ],
    });
    const events = await collectEvents(
      assistant({
        functionList: [{ name: 'retrieval', max_ref_token: 300, parser_page_size: 100 }],
        files: [],
      }).runEvents([{ role: 'user', content: [{ file: handbook }, { text: 'Use the tool.' }] }], {
        workDir: path.join(env.dir, 'work'),
      }),
    );
    const retrievals = ofType(events, 'retrieval');
    expect(retrievals.map((r) => r.by)).toEqual(['assistant', 'tool']);
    expect(retrievals[1]).toMatchObject({ functionId: 'call_r', iteration: 1, query: 'parental leave' });
    const result = ofType(events, 'tool-result')[0]!;
    expect(result.ok).toBe(true);
    expect(result.content).toContain('Parental leave: new parents');
  });
});
