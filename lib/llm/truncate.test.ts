import { describe, expect, it } from 'vitest';
import { ModelInputError } from './errors';
import { contentText, type Message } from './schema';
import { countMessageTokens, countTokens } from './tokens';
import { OMITTED, truncateInputMessages } from './truncate';

const VOCAB = ['red', 'sun', 'cat', 'map', 'box', 'pen', 'cup', 'dog', 'hat', 'key'];

/** English text of exactly `n` estimated tokens, starting with `head` and ending with `tail`. */
function words(n: number, head = 'start', tail = 'finish'): string {
  let length = n - 2;
  for (;;) {
    const body = Array.from({ length }, (_, i) => VOCAB[i % VOCAB.length]);
    const text = [head, ...body, tail].join(' ');
    const diff = n - countTokens(text);
    if (diff === 0) return text;
    length += diff;
  }
}

const sys = (content = 'You are a helpful assistant.'): Message => ({ role: 'system', content });
const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });
const call = (name: string, args: string, id = '1'): Message => ({
  role: 'assistant',
  content: '',
  function_call: { name, arguments: args },
  extra: { function_id: id },
});
const result = (name: string, content: string, id = '1'): Message => ({
  role: 'function',
  name,
  content,
  extra: { function_id: id },
});

const total = (msgs: Message[]) => msgs.reduce((n, m) => n + countMessageTokens(m), 0);

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Runs truncation on a frozen copy and checks what must hold for every result. */
function run(messages: Message[], budget: number) {
  const before = structuredClone(messages);
  const frozen = deepFreeze(structuredClone(messages));
  const out = truncateInputMessages(frozen, budget);
  expect(frozen).toEqual(before); // nothing was mutated (it would have thrown on the frozen input anyway)
  expect(total(out.messages)).toBeLessThanOrEqual(budget);
  expect(out.inputTokens).toBe(total(out.messages));
  const rest = out.messages[0]?.role === 'system' ? out.messages.slice(1) : out.messages;
  expect(rest[0]?.role).toBe('user');
  expect(out.messages.filter((m) => m.role === 'system').length).toBeLessThanOrEqual(1);
  return out;
}

function expectInputError(fn: () => unknown, pattern: RegExp) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ModelInputError);
    expect((err as ModelInputError).code).toBe('model-input-invalid');
    expect((err as ModelInputError).status).toBe(400);
    expect((err as Error).message).toMatch(pattern);
    return;
  }
  throw new Error('expected a ModelInputError');
}

describe('truncateInputMessages: errors (status 400, model-input-invalid)', () => {
  it('rejects two system messages', () => {
    expectInputError(
      () => truncateInputMessages([sys(), user('hi'), sys('again')], 1000),
      /no more than one system message/,
    );
  });

  it('rejects a system message that is not first', () => {
    expectInputError(() => truncateInputMessages([user('hi'), sys()], 1000), /must be the first message/);
  });

  it('rejects a conversation that does not start with a user message after the system message', () => {
    expectInputError(
      () => truncateInputMessages([sys(), assistant('hello'), user('hi')], 1000),
      /must start with a user message/,
    );
    expectInputError(
      () => truncateInputMessages([result('f', 'x'), user('hi')], 1000),
      /must start with a user message/,
    );
  });

  it('rejects a system message that alone exceeds the budget', () => {
    expectInputError(() => truncateInputMessages([sys(words(300)), user('hi')], 200), /system message alone/);
  });

  it('rejects a latest turn that cannot be shortened into the budget', () => {
    const msgs = [sys(words(100)), user(words(50))];
    expectInputError(() => truncateInputMessages(msgs, 106), /maximum context length/);
  });

  it('checks nothing when truncation is disabled', () => {
    const msgs = [assistant('no user first'), sys(), sys()];
    expect(truncateInputMessages(msgs, 0).messages).toEqual(msgs);
  });
});

describe('truncateInputMessages: nothing to cut', () => {
  it('returns the messages unchanged when maxTokens <= 0, however long they are', () => {
    const msgs = [sys(), user(words(5000))];
    for (const budget of [0, -1]) {
      const out = truncateInputMessages(msgs, budget);
      expect(out.messages).toEqual(msgs);
      expect(out.notes).toEqual([]);
      expect(out.inputTokens).toBe(total(msgs));
    }
  });

  it('returns the messages unchanged on the byte fast path, still reporting the token count', () => {
    const msgs = [
      sys(),
      user('What is the weather in Paris?'),
      call('get_weather', '{"city":"Paris"}'),
      result('get_weather', '18 C, sunny'),
    ];
    const out = run(msgs, 58_000);
    expect(out.messages).toEqual(msgs);
    expect(out.notes).toEqual([]);
    expect(out.inputTokens).toBe(total(msgs));
  });

  it('returns the messages unchanged when the bytes exceed the budget but the tokens do not', () => {
    const chinese = '我们的前端使用现代框架开发，后端通过兼容的接口调用模型。'.repeat(10);
    const msgs = [user(chinese)];
    expect(Buffer.byteLength(chinese)).toBeGreaterThan(400);
    expect(total(msgs)).toBeLessThan(400);
    const out = run(msgs, 400);
    expect(out.messages).toEqual(msgs);
    expect(out.notes).toEqual([]);
  });

  it('accepts a conversation without a system message, and an empty one', () => {
    expect(run([user(words(30)), assistant(words(30))], 1000).messages).toHaveLength(2);
    expect(truncateInputMessages([], 10).messages).toEqual([]);
  });
});

describe('truncateInputMessages: S1 drops whole old turns', () => {
  it('drops the oldest turns that fit inside the excess, then cuts into the next one', () => {
    const turns = [0, 1, 2, 3].map((i) => [user(words(100, `q${i}`, `q${i}end`)), assistant(words(100, `a${i}`))]);
    const msgs = [sys(), ...turns.flat()];
    const twoTurns = total(turns[0]!) + total(turns[1]!);
    const out = run(msgs, total(msgs) - twoTurns - 50);
    expect(out.messages[0]).toEqual(sys());
    expect(contentText(out.messages[1]!.content)).toMatch(/^q2 .*\.\.\..* q2end$/);
    expect(out.messages.slice(2)).toEqual([turns[2]![1], ...turns[3]!]);
    expect(out.notes).toContain(`dropped 2 oldest turns (about ${twoTurns} tokens)`);
    expect(out.notes[0]).toMatch(
      /^input of about \d+ tokens exceeded the \d+-token budget; about \d+ tokens are sent$/,
    );
  });

  it('keeps later turns byte-for-byte when dropping whole turns is exactly enough', () => {
    const turns = [0, 1, 2].map((i) => [user(words(100, `q${i}`)), assistant(words(100, `a${i}`))]);
    const msgs = [sys(), ...turns.flat()];
    const out = run(msgs, total(msgs) - total(turns[0]!));
    expect(out.messages).toEqual([sys(), ...turns[1]!, ...turns[2]!]);
    expect(out.notes.slice(1)).toEqual([`dropped 1 oldest turn (about ${total(turns[0]!)} tokens)`]);
  });
});

describe('truncateInputMessages: S2 folds older tool results', () => {
  const steps = () => [
    user('Compare the three reports.'),
    call('read', '{"file":"a.txt"}', 'a'),
    result('read', words(200, 'alphaHead', 'alphaTail'), 'a'),
    call('read', '{"file":"b.txt"}', 'b'),
    result('read', words(200, 'betaHead', 'betaTail'), 'b'),
    call('read', '{"file":"c.txt"}', 'c'),
    result('read', words(200, 'gammaHead', 'gammaTail'), 'c'),
  ];

  it('folds the oldest result to head...tail when that saves enough', () => {
    const msgs = steps();
    const out = run(msgs, total(msgs) - 50);
    const folded = contentText(out.messages[2]!.content);
    expect(folded).toMatch(/^alphaHead .*\.\.\..* alphaTail$/);
    expect(countMessageTokens(out.messages[2]!)).toBeLessThanOrEqual(countMessageTokens(msgs[2]!) - 50);
    expect(out.messages[2]).toMatchObject({ role: 'function', name: 'read', extra: { function_id: 'a' } });
    expect(out.messages.slice(3)).toEqual(msgs.slice(3));
    expect(out.notes).toContain('folded 1 older tool result to head...tail');
  });

  it("replaces a result with 'omit' when the excess is larger than it, then folds the next", () => {
    const msgs = steps();
    const out = run(msgs, total(msgs) - 250);
    expect(out.messages[2]!.content).toBe(OMITTED);
    expect(contentText(out.messages[4]!.content)).toMatch(/^betaHead .*\.\.\..* betaTail$/);
    expect(out.messages[6]).toEqual(msgs[6]); // the latest step of the last turn is left for S4
    expect(out.notes).toEqual(
      expect.arrayContaining(["replaced 1 older tool result with 'omit'", 'folded 1 older tool result to head...tail']),
    );
  });

  it('also folds the latest results of an older turn', () => {
    const first = steps();
    const second = [user(words(20, 'next')), assistant(words(20, 'reply'))];
    const msgs = [...first, ...second];
    const out = run(msgs, total(msgs) - 420);
    expect(out.messages[2]!.content).toBe(OMITTED);
    expect(out.messages[4]!.content).toBe(OMITTED);
    expect(contentText(out.messages[6]!.content)).toMatch(/^gammaHead .*\.\.\..* gammaTail$/);
    expect(out.messages.slice(7)).toEqual(second);
  });
});

describe('truncateInputMessages: S3 drops middle steps', () => {
  it('drops middle steps oldest first, keeping the first step and the steps from the one that tips it', () => {
    const msgs = [
      user('Plan the trip.'),
      assistant(words(150, 'thinkOne')),
      call('search', '{"q":"one"}', '1'),
      result('search', 'ok', '1'),
      assistant(words(150, 'thinkTwo')),
      call('search', '{"q":"two"}', '2'),
      result('search', 'ok', '2'),
      assistant(words(150, 'thinkThree')),
      call('search', '{"q":"three"}', '3'),
      result('search', 'ok', '3'),
      assistant(words(50, 'answer')),
    ];
    const out = run(msgs, total(msgs) - 200);
    expect(out.messages).toEqual([msgs[0], ...msgs.slice(7)]);
    expect(out.notes).toContain('dropped 2 middle steps of a turn');
  });
});

describe('truncateInputMessages: S4 folds the tool results of the last step', () => {
  it('folds the newest result once older results and middle steps are gone', () => {
    const msgs = [
      user('Summarise the log.'),
      call('read_log', '{"n":1}', '1'),
      result('read_log', words(40, 'oldHead'), '1'),
      call('read_log', '{"n":2}', '2'),
      result('read_log', words(600, 'logHead', 'logTail'), '2'),
    ];
    const out = run(msgs, 300);
    const last = out.messages[out.messages.length - 1]!;
    expect(last).toMatchObject({ role: 'function', name: 'read_log', extra: { function_id: '2' } });
    expect(contentText(last.content)).toMatch(/^logHead .*\.\.\..* logTail$/);
    expect(out.messages[0]).toEqual(msgs[0]);
    expect(out.notes).toContain('folded 1 tool result of the last step to head...tail');
  });
});

describe('truncateInputMessages: S5 truncates user/assistant text', () => {
  it('cuts a single very long user message keeping both ends', () => {
    const msgs = [sys(), user(words(3000, 'FirstWords', 'LastWords'))];
    const out = run(msgs, 1000);
    expect(out.messages[0]).toEqual(msgs[0]);
    expect(contentText(out.messages[1]!.content)).toMatch(/^FirstWords .*\.\.\..* LastWords$/);
    expect(out.inputTokens).toBeGreaterThan(990);
    expect(out.notes).toContain('truncated 1 user/assistant message keeping both ends');
  });

  it("omits the user text before cutting the assistant's when the excess is larger than the user message", () => {
    const msgs = [user(words(100, 'askHead')), assistant(words(1000, 'ansHead', 'ansTail'))];
    const out = run(msgs, 600);
    expect(out.messages[0]!.content).toBe(OMITTED);
    expect(contentText(out.messages[1]!.content)).toMatch(/^ansHead .*\.\.\..* ansTail$/);
  });

  it('keeps media items and drops the reasoning of a cut message', () => {
    const msgs: Message[] = [
      user('look'),
      {
        role: 'assistant',
        content: [{ text: words(800) }, { image: 'https://x.test/chart.png' }],
        reasoning_content: words(200),
      },
    ];
    const out = run(msgs, 300);
    const cut = out.messages[1]!;
    expect(cut.reasoning_content).toBeUndefined();
    expect(cut.content).toEqual([{ text: expect.stringContaining('...') }, { image: 'https://x.test/chart.png' }]);
  });
});

describe('truncateInputMessages: a turn that folding cannot shrink', () => {
  it('drops it whole when it is not the last turn', () => {
    const msgs = [
      user('hi'),
      call('write_file', JSON.stringify({ path: 'a.txt', text: words(500) }), '1'),
      result('write_file', 'ok', '1'),
      user(words(100, 'second')),
    ];
    const out = run(msgs, total(msgs) - 100);
    expect(out.messages).toEqual([msgs[3]]);
    expect(out.notes.slice(1)).toEqual(['dropped 1 turn that folding could not shrink enough']);
  });
});

describe('truncateInputMessages: random conversations', () => {
  it('always fits the budget, keeps the shape and never mutates, or throws a 400', () => {
    let seed = 42;
    const rand = (n: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * n);
    for (let round = 0; round < 150; round++) {
      const msgs: Message[] = rand(2) ? [sys(words(2 + rand(80)))] : [];
      const turns = 1 + rand(4);
      for (let t = 0; t < turns; t++) {
        msgs.push(user(words(2 + rand(300))));
        const stepsInTurn = rand(4);
        for (let s = 0; s < stepsInTurn; s++) {
          if (rand(3)) {
            msgs.push(call('tool', `{"n": ${rand(100)}}`, String(s)));
            msgs.push(result('tool', words(2 + rand(400)), String(s)));
          } else msgs.push(assistant(words(2 + rand(200))));
        }
        if (rand(2)) msgs.push(assistant(words(2 + rand(100))));
      }
      const budget = 20 + rand(total(msgs));
      try {
        run(msgs, budget);
      } catch (err) {
        expect(err).toBeInstanceOf(ModelInputError);
      }
    }
  });
});
