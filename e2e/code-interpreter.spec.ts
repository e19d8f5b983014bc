import { expect, test, type Page } from '@playwright/test';
import { assistantTurns, lastAnswer, openChat, panelOf, send } from './support/chat';
import { setScenario } from './support/model';

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
  // The console: the output exactly as the model got it.
  const console = panel.locator('pre', { hasText: /^stdout:/ });
  await expect(console).toHaveText('stdout:\n\n```\n24133\n```');
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
