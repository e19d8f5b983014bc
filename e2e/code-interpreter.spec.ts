import { expect, test, type Page } from '@playwright/test';
import { assistantTurns, lastAnswer, openChat, panelOf, send, stopWhileToolRuns } from './support/chat';
import { chatRequests, setScenario } from './support/model';

// Starting Python (CPython in bubblewrap, or Pyodide in its sandboxed process) takes seconds on a busy machine.
test.setTimeout(120_000);

const PRIMES_CODE = [
  'primes = []',
  'n = 2',
  'while len(primes) < 100:',
  '    if all(n % p for p in primes if p * p <= n):',
  '        primes.append(n)',
  '    n += 1',
  'print(sum(primes))',
].join('\n');

/** The answer, once its run (including an interpreter's cold start) has finished. */
async function finishedAnswer(page: Page) {
  await expect(assistantTurns(page).last()).toHaveAttribute('aria-busy', 'false', { timeout: 90_000 });
  return lastAnswer(page);
}

async function enableCodeInterpreter(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('checkbox', { name: /code_interpreter/ }).check();
}

test('the sum of the first 100 primes is computed by real Python and the answer uses it', async ({ page }) => {
  const word = 'ci-ibis';
  await setScenario({
    rules: [
      // The answer is only given once the tool result the model receives holds the number: only real Python
      // running the code produces it (the script never writes it).
      {
        when: { lastUserIncludes: word, anyIncludes: '24133' },
        reply: { content: 'The sum of the first 100 prime numbers is 24133.' },
      },
      {
        when: { lastUserIncludes: word },
        reply: { toolCalls: [{ name: 'code_interpreter', arguments: JSON.stringify({ code: PRIMES_CODE }) }] },
      },
    ],
  });
  await openChat(page);
  await enableCodeInterpreter(page);
  await send(page, `What is the sum of the first 100 prime numbers? ${word}`);

  const answer = await finishedAnswer(page);
  const card = answer.getByRole('button', { name: /code_interpreter/ });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('done');
  await card.click();
  const panel = await panelOf(card);
  await expect(panel.locator('code.language-python')).toContainText('while len(primes) < 100:');
  // The output as the model got it, drawn as Markdown: its section's block a code block.
  await expect(panel.getByText('stdout:', { exact: true })).toBeVisible();
  await expect(panel.locator('pre code')).toContainText(['while len(primes) < 100:', '24133']);
  expect((await chatRequests())[1]?.body.messages.at(-1).content).toBe('stdout:\n\n```\n24133\n```');
  await expect(answer).toContainText('The sum of the first 100 prime numbers is 24133.');
});

test('files the code writes are listed on the card, images shown, and downloadable', async ({ page }) => {
  const word = 'ci-heron';
  const code = [
    'import struct, zlib',
    'def chunk(kind, data):',
    "    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))",
    "rows = b''.join(b'\\x00' + bytes((200, 30, 30)) * 8 for _ in range(8))",
    "png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 8, 8, 8, 2, 0, 0, 0))",
    "png += chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b'')",
    "open('square.png', 'wb').write(png)",
    "open('squares.csv', 'w').write('n,square\\n' + ''.join(f'{i},{i * i}\\n' for i in range(1, 4)))",
  ].join('\n');
  await setScenario({
    rules: [
      { when: { lastUserIncludes: word, anyIncludes: 'squares.csv' }, reply: { content: 'Saved two files.' } },
      {
        when: { lastUserIncludes: word },
        reply: { toolCalls: [{ name: 'code_interpreter', arguments: JSON.stringify({ code }) }] },
      },
    ],
  });
  await openChat(page);
  await enableCodeInterpreter(page);
  await send(page, `Draw a red square and write a table of squares. ${word}`);

  const answer = await finishedAnswer(page);
  await expect(answer).toContainText('Saved two files.');
  const card = answer.getByRole('button', { name: /code_interpreter/ });
  await card.click();
  const files = (await panelOf(card)).getByRole('region', { name: 'Files written' });
  // The image is on the card itself (folded or not); the panel lists it with the other files.
  const image = answer.getByRole('region', { name: 'Images' }).getByRole('img', { name: 'square.png' });
  await expect(files.getByRole('link', { name: 'square.png' })).toBeVisible();
  await expect(image).toBeVisible();
  // The image really loaded (a broken one has no natural width).
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);

  const link = files.getByRole('link', { name: 'squares.csv' });
  const href = await link.getAttribute('href');
  expect(href).toMatch(/^\/api\/artifacts\/[\w-]+\/squares\.csv$/);
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-disposition']).toContain('attachment; filename="squares.csv"');
  expect(await res.text()).toBe('n,square\n1,1\n2,4\n3,9\n');
  // Nothing outside the conversation's work directory is served.
  const outside = await page.request.get(href!.replace('squares.csv', '..%2F..%2F..%2Fchat.db'));
  expect(outside.status()).toBe(404);
});

const callCode = (code: string) => ({
  toolCalls: [{ name: 'code_interpreter', arguments: JSON.stringify({ code }) }],
});

test('code that raises or does not parse shows as failed on its card, its output drawn as Markdown', async ({
  page,
}) => {
  const word = 'ci-shrike';
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: word },
        reply: [callCode("x = 1/0\nprint('never')"), callCode('def f(:\n  pass'), { content: 'Both failed.' }],
      },
    ],
  });
  await openChat(page);
  await enableCodeInterpreter(page);
  await send(page, `Divide by zero, then write bad syntax. ${word}`);

  const answer = await finishedAnswer(page);
  await expect(answer).toContainText('Both failed.');
  const cards = answer.getByRole('button', { name: /code_interpreter/ });
  await expect(cards).toHaveCount(2);
  for (const [i, error] of [
    [0, 'ZeroDivisionError: division by zero'],
    [1, 'SyntaxError'],
  ] as const) {
    const card = cards.nth(i);
    await expect(card).toContainText('error');
    await expect(card).not.toContainText('done');
    await card.click();
    const panel = await panelOf(card);
    await expect(panel).toContainText('Error returned to the model');
    // The traceback is a code block of its own, as an answer's would be: no Markdown fences shown as text.
    await expect(panel.locator('pre code').filter({ hasText: error })).toHaveCount(1);
    expect(await panel.innerText()).not.toContain('```');
  }
  // The model got what upstream's code_interpreter returns, unchanged.
  const [, second] = await chatRequests();
  const toolMessage = second?.body.messages.at(-1);
  expect(toolMessage.role).toBe('tool');
  expect(toolMessage.content).toMatch(/^error:\n\n```\nTraceback \(most recent call last\):\n[\s\S]*ZeroDivision/);
});

test('a chart the model shows in its answer by the address the tool gave it loads there', async ({ page }) => {
  const word = 'ci-wren';
  const code = [
    'import struct, zlib',
    'def chunk(kind, data):',
    "    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))",
    "rows = b''.join(b'\\x00' + bytes((30, 30, 200)) * 8 for _ in range(8))",
    "png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 8, 8, 8, 2, 0, 0, 0))",
    "png += chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b'')",
    "open('chart.png', 'wb').write(png)",
  ].join('\n');
  await setScenario({ fallback: { content: 'Hello.' } });
  await openChat(page);
  await enableCodeInterpreter(page);
  await send(page, 'Hello');
  await expect(page).toHaveURL(/\?c=[\w-]+/);
  const conversation = new URL(page.url()).searchParams.get('c')!;
  const address = `/api/artifacts/${conversation}/chart.png`;
  // The scripted model answers with the image only once the tool told it the chart's address, as a model reuses
  // upstream's `![fig-001](url)`.
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: word, anyIncludes: `](${address})` },
        reply: { content: `Here is the chart: ![the blue chart](${address})` },
      },
      { when: { lastUserIncludes: word }, reply: callCode(code) },
    ],
  });
  await send(page, `Draw a chart. ${word}`);
  const answer = await finishedAnswer(page);
  const chart = answer.getByRole('img', { name: 'the blue chart' });
  await expect(chart).toBeVisible();
  await expect.poll(() => chart.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
});

test('Stop during a run of code says the interpreter was restarted, to the user and to the model', async ({ page }) => {
  const word = 'ci-kestrel';
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: `set ${word}` },
        reply: [callCode('x = 42'), { content: 'x is set.' }],
      },
      {
        when: { lastUserIncludes: `loop ${word}` },
        reply: callCode('import time\nx = 43\nwhile True:\n    time.sleep(0.05)'),
      },
      {
        when: { lastUserIncludes: `check ${word}` },
        reply: [callCode("print('x is', globals().get('x'))"), { content: 'Checked.' }],
      },
    ],
  });
  await openChat(page);
  await enableCodeInterpreter(page);
  // A warm interpreter: the loop's code runs as soon as its call starts.
  await send(page, `set ${word}`);
  await expect(await finishedAnswer(page)).toContainText('x is set.');

  await send(page, `loop ${word}`);
  const panel = await stopWhileToolRuns(page, /code_interpreter/, 1500);
  await expect(panel).toContainText('The interpreter was restarted: variables and imports are gone');

  await send(page, `check ${word}`);
  const checked = await finishedAnswer(page);
  await checked.getByRole('button', { name: /code_interpreter/ }).click();
  await expect(checked).toContainText('x is None');
  // The model is told too: the stopped call's result is in the history it gets.
  const history = JSON.stringify((await chatRequests()).at(-2)?.body.messages);
  expect(history).toContain('The interpreter was restarted: variables and imports are gone');
});
