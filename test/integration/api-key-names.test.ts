// An API key's name over a real SQLite store (lib/auth/api-keys.ts, which the account page's server action calls):
// at most MAX_KEY_NAME_LENGTH characters, a longer one refused with a coded error the page says in its language
// (never cut short and saved), an empty one refused, one at the limit saved as given (trimmed).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTranslator } from 'next-intl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_KEY_NAME_LENGTH } from '../../lib/auth/api-key-name';
import { ApiKeyService } from '../../lib/auth/api-keys';
import en from '../../lib/i18n/messages/en.json';
import zhCN from '../../lib/i18n/messages/zh-CN.json';
import { CodedError } from '../../lib/protocol/errors';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';

let store: ChatStore;
let keys: ApiKeyService;
const OWNER = ownerScope('user-key-names');

beforeAll(async () => {
  store = await openSqliteStore(path.join(mkdtempSync(path.join(tmpdir(), 'api-key-names-')), 'chat.db'));
  keys = new ApiKeyService(store);
});
afterAll(async () => {
  await store.close();
});

async function refusal(name: string): Promise<CodedError> {
  try {
    await keys.create(OWNER, name, 'read');
  } catch (e) {
    return e as CodedError;
  }
  throw new Error(`a key named ${name.length} characters was made`);
}

describe('an API key name', () => {
  it('is at most 60 characters: one of 2,000 (or 61) is refused, nothing saved, and said in English and Chinese', async () => {
    expect(MAX_KEY_NAME_LENGTH).toBe(60);
    for (const name of ['x'.repeat(2000), 'y'.repeat(61)]) {
      const e = await refusal(name);
      expect(e).toMatchObject({ name: 'CodedError', code: 'key-name-long', values: { max: 60 }, status: 400 });
      expect(e.message).toBe('A key’s name is at most 60 characters.');
      const say = (messages: typeof en, locale: 'en' | 'zh-CN') =>
        createTranslator({ locale, messages, namespace: 'errors' })('key-name-long', e.values);
      expect(say(en, 'en')).toBe(e.message);
      expect(say(zhCN as typeof en, 'zh-CN')).toBe('密钥的名字最多 60 个字符。');
    }
    expect(await keys.list(OWNER)).toEqual([]);
  });

  it('of 60 characters (spaces around it trimmed) is saved as given; an empty one is refused', async () => {
    const name = 'z'.repeat(60);
    const { key } = await keys.create(OWNER, `  ${name}  `, 'run');
    expect(key.name).toBe(name);
    expect((await refusal('   ')).code).toBe('key-name-missing');
    expect((await keys.list(OWNER)).map((k) => k.name)).toEqual([name]);
  });
});
