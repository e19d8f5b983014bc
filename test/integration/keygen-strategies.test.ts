// The keyword strategies (ragCfg.rag_keygen_strategy) over real HTTP against the scripted model server: each sends
// the prompts upstream's class sends, in upstream's order and with its stop words (GenKeyword: the keyword prompt;
// SplitQuery: the split prompt, stopped before the instruction part; SplitQueryThenGenKeyword: the split, then the
// keyword prompt on the information; the WithKnowledge variants: the documents' vocabulary in the keyword prompt),
// and the Assistant then searches for the keywords: a passage the question's own words miss reaches the answer.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { Assistant, BasicDocQA, GenKeyword, SplitQuery, type KeygenStrategyName } from '../../lib/agent';
import { createChatModel } from '../../lib/llm';
import type { ScriptedReply } from '../../lib/protocol/fixture';
import { messageText, type RecordedRequest } from '../../scripts/model-server/script';
import { localDocumentsForEachTest } from '../support/local-documents';
import { collectEvents, ofType } from '../support/run';

// No word of the question is in the passage that answers it: only keywords find it.
const QUESTION = 'How much time off does someone get after childbirth?';
const PASSAGE = 'Parental leave: sixteen weeks paid in full.';
const KEYWORDS = '{"keywords_zh": ["育儿假"], "keywords_en": ["parental", "leave"]}';

let handbook: string;

const env = localDocumentsForEachTest('keygen-');
beforeEach(async () => {
  handbook = path.join(env.dir, 'handbook.md');
  const sections = Array.from(
    { length: 60 },
    (_, i) => `Section ${i}: office routines and building access and meeting rooms and general administration.`,
  );
  sections.splice(41, 0, PASSAGE);
  await writeFile(handbook, sections.join('\n\n'));
});

const llm = () => createChatModel({ model: 'scripted', baseURL: env.server.url, apiKey: 'k', fncallMode: 'native' });
const ragCfg = (strategy: KeygenStrategyName | 'none') => ({
  max_ref_token: 120,
  parser_page_size: 60,
  rag_keygen_strategy: strategy,
});

const lastUser = (r: RecordedRequest) =>
  messageText(r.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1)?.content);
const systemOf = (r: RecordedRequest) =>
  messageText(r.body.messages.find((m: { role: string }) => m.role === 'system')?.content);

/** Replies by what the request asks: the split prompt, the keyword prompt, or the answer. */
function scripted(split: string): (req: RecordedRequest) => ScriptedReply {
  return (req) => {
    const last = lastUser(req);
    if (last.trimEnd().endsWith('Result:')) return { content: split };
    if (last.trimEnd().endsWith('Keywords:')) return { content: `${KEYWORDS}\nObservation: ...` };
    return { content: 'Sixteen weeks [handbook.md].' };
  };
}

/** Upstream's keyword prompt layout: worked examples as Question / Keywords / Observation lines, the JSON shape,
 *  and the question last, left for the model to complete after "Keywords:". */
function expectKeywordPrompt(prompt: string, question: string) {
  expect(prompt).toContain('{"keywords_zh": ["关键词1", "关键词2"], "keywords_en": ["keyword 1", "keyword 2"]}');
  expect(prompt.match(/^Question: .+\nKeywords: \{"keywords_zh": .*\}\nObservation: \.\.\.$/gm)).toHaveLength(3);
  expect(prompt.endsWith(`\nQuestion: ${question}\nKeywords:\n`)).toBe(true);
}

/** Upstream's knowledge prompt layout: the documents' vocabulary between "<Refs>" and "...", a Thought naming the
 *  JSON shape, then "Keywords:". */
function expectKnowledgePrompt(prompt: string, question: string) {
  expect(prompt).toMatch(/\nBegin!\n<Refs> .*\n.+\n\.\.\.\nQuestion: /);
  expect(prompt).toContain(`\nQuestion: ${question}\nThought: `);
  expect(prompt).toContain('{"keywords_zh": ["关键词1", "关键词2"], "keywords_en": ["keyword 1", "keyword 2"]}');
  expect(prompt.endsWith('\nKeywords:\n')).toBe(true);
  // The vocabulary is the document's own words, its most frequent first; not the question's.
  const vocabulary = prompt.split('<Refs>')[1]!.split('\n')[1]!.split(', ');
  const recurring = ['section', 'office', 'routines', 'building', 'access', 'meeting', 'rooms', 'general'];
  for (const word of vocabulary.slice(0, 4)) expect([...recurring, 'administration']).toContain(word);
  expect(vocabulary).toEqual(expect.arrayContaining(['parental', 'leave', 'sixteen']));
  expect(vocabulary).not.toContain('childbirth');
}

/** Upstream's split prompt layout: the JSON shape with information and instruction, worked examples as Question /
 *  Result / Observation lines, the question last, left for the model to complete after "Result:". */
function expectSplitPrompt(prompt: string, question: string) {
  expect(prompt).toMatch(/\{"information": \[.*\], "instruction": \[.*\]\}/);
  expect(prompt.match(/^Question: .+\nResult: \{"information": .*\}\nObservation: \.\.\.$/gm)).toHaveLength(4);
  expect(prompt.endsWith(`\nQuestion: ${question}\nResult:\n`)).toBe(true);
}

async function ask(strategy: KeygenStrategyName | 'none') {
  const events = await collectEvents(
    new Assistant({ llm: llm(), ragCfg: ragCfg(strategy) }).runEvents([
      { role: 'user', content: [{ text: QUESTION }, { file: handbook }] },
    ]),
  );
  expect(ofType(events, 'run-end')[0]!.reason).toBe('answered');
  return events;
}

describe('keyword strategies (rag_keygen_strategy)', () => {
  it('none: no keyword call, and the question’s own words miss the passage', async () => {
    env.server.setScenario(scripted(''));
    await ask('none');
    expect(env.server.requests).toHaveLength(1);
    expect(systemOf(env.server.requests[0]!)).not.toContain(PASSAGE);
  });

  it('GenKeyword: one call with the keyword prompt, stopped at "Observation:"; its keywords find the passage', async () => {
    env.server.setScenario(scripted(''));
    const events = await ask('GenKeyword');
    expect(env.server.requests).toHaveLength(2);
    const [keygen, answer] = env.server.requests as [RecordedRequest, RecordedRequest];
    expectKeywordPrompt(lastUser(keygen), QUESTION);
    expect(keygen.body.stop).toEqual(['Observation:']);
    expect(keygen.body.tools).toBeUndefined();
    expect(systemOf(answer)).toContain(PASSAGE);
    const [retrieval] = ofType(events, 'retrieval');
    expect(JSON.parse(retrieval!.query)).toEqual({ ...JSON.parse(KEYWORDS), text: QUESTION });
    // The strategy is a step aside: its call is in the trace as a child run, not among the run's messages.
    expect(ofType(events, 'child').find((e) => e.event.type === 'llm-start')).toMatchObject({
      agent: 'GenKeyword',
      aside: true,
    });
  });

  it('GenKeywordWithKnowledge: the keyword prompt shows the documents’ vocabulary', async () => {
    env.server.setScenario(scripted(''));
    await ask('GenKeywordWithKnowledge');
    expect(env.server.requests).toHaveLength(2);
    expectKnowledgePrompt(lastUser(env.server.requests[0]!), QUESTION);
    expect(env.server.requests[0]!.body.stop).toEqual(['Observation:']);
    expect(systemOf(env.server.requests[1]!)).toContain(PASSAGE);
  });

  it('SplitQuery: one call with the split prompt, stopped before the instruction part, its JSON closed', async () => {
    env.server.setScenario(scripted('{"information": ["parental leave'));
    const events = await ask('SplitQuery');
    expect(env.server.requests).toHaveLength(2);
    expectSplitPrompt(lastUser(env.server.requests[0]!), QUESTION);
    expect(env.server.requests[0]!.body.stop).toEqual(['"], "instruction":']);
    // The information is searched for (shorter than the question), and finds the passage.
    const [retrieval] = ofType(events, 'retrieval');
    expect(JSON.parse(retrieval!.query)).toEqual({ information: ['parental leave'], text: 'parental leave' });
    expect(systemOf(env.server.requests[1]!)).toContain(PASSAGE);
  });

  it('SplitQueryThenGenKeyword: the split, then the keyword prompt on the information alone', async () => {
    env.server.setScenario(scripted('{"information": ["time off after childbirth'));
    const events = await ask('SplitQueryThenGenKeyword');
    expect(env.server.requests).toHaveLength(3);
    const [split, keygen, answer] = env.server.requests as [RecordedRequest, RecordedRequest, RecordedRequest];
    expectSplitPrompt(lastUser(split), QUESTION);
    expect(split.body.stop).toEqual(['"], "instruction":']);
    expectKeywordPrompt(lastUser(keygen), 'time off after childbirth');
    expect(keygen.body.stop).toEqual(['Observation:']);
    const [retrieval] = ofType(events, 'retrieval');
    expect(JSON.parse(retrieval!.query)).toEqual({ ...JSON.parse(KEYWORDS), text: 'time off after childbirth' });
    expect(systemOf(answer)).toContain(PASSAGE);
  });

  it('SplitQueryThenGenKeywordWithKnowledge: the split, then the knowledge prompt on the information', async () => {
    env.server.setScenario(scripted('```json\n{"information": ["time off after childbirth"]}\n```'));
    await ask('SplitQueryThenGenKeywordWithKnowledge');
    expect(env.server.requests).toHaveLength(3);
    expectSplitPrompt(lastUser(env.server.requests[0]!), QUESTION);
    expectKnowledgePrompt(lastUser(env.server.requests[1]!), 'time off after childbirth');
    expect(systemOf(env.server.requests[2]!)).toContain(PASSAGE);
  });

  it('a keyword answer that is not JSON leaves the search to the question, as upstream', async () => {
    env.server.setScenario((req) =>
      lastUser(req).trimEnd().endsWith('Keywords:') ? { content: 'parental leave, I think' } : { content: 'ok' },
    );
    const events = await ask('GenKeyword');
    expect(ofType(events, 'retrieval')[0]!.query).toBe(QUESTION);
  });

  it('in Chinese: the same layouts, in Chinese', async () => {
    env.server.setScenario(scripted('{"information": ["产假'));
    await collectEvents(
      new Assistant({ llm: llm(), ragCfg: ragCfg('SplitQueryThenGenKeyword') }).runEvents(
        [{ role: 'user', content: [{ text: '生孩子以后可以休多久的假？' }, { file: handbook }] }],
        { lang: 'zh' },
      ),
    );
    const [split, keygen] = env.server.requests as [RecordedRequest, RecordedRequest];
    expectSplitPrompt(lastUser(split), '生孩子以后可以休多久的假？');
    expect(lastUser(split)).toContain('回答问题');
    expectKeywordPrompt(lastUser(keygen), '产假');
    expect(lastUser(keygen)).toContain('关键词');
  });

  it('a name that is not a strategy is refused when the agent is made, naming the ones there are', () => {
    expect(() => new Assistant({ llm: llm(), ragCfg: { rag_keygen_strategy: 'GenKeywords' as 'none' } })).toThrow(
      /rag_keygen_strategy: "GenKeywords" is not a keyword strategy\. It takes "none" or one of "GenKeyword", .*"SplitQueryThenGenKeywordWithKnowledge"/,
    );
  });

  it('the strategies run on their own, as upstream’s agents: the last message is the answer', async () => {
    env.server.setScenario(scripted('{"information": ["parental leave'));
    const keywords = await new GenKeyword({ llm: llm() }).runNonStream([{ role: 'user', content: QUESTION }]);
    expect(keywords.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringContaining(KEYWORDS) });
    const split = await new SplitQuery({ llm: llm() }).runNonStream([{ role: 'user', content: QUESTION }]);
    expect(split.at(-1)!.content).toBe('{"information": ["parental leave"]}');
  });
});

describe('BasicDocQA', () => {
  it('answers in one call, offering no tools, from the passages its keyword strategy found', async () => {
    env.server.setScenario(scripted(''));
    const messages = await new BasicDocQA({ llm: llm(), ragCfg: ragCfg('GenKeyword') }).runNonStream([
      { role: 'user', content: [{ text: QUESTION }, { file: handbook }] },
    ]);
    expect(messages).toEqual([{ role: 'assistant', content: 'Sixteen weeks [handbook.md].', name: 'BasicDocQA' }]);
    expect(env.server.requests).toHaveLength(2);
    const answer = env.server.requests[1]!;
    expect(answer.body.tools).toBeUndefined();
    expect(systemOf(answer)).toMatch(/# Reference material:\n# Knowledge Base\n/);
    expect(systemOf(answer)).toContain(PASSAGE);
  });
});
