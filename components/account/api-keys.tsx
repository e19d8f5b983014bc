'use client';
// The user's API keys: make one with a name (shown once), see when each was last used, revoke one.
import { useState } from 'react';
import { createApiKey, listApiKeys, revokeApiKey } from '@/app/actions/account';
import type { ApiKeyRecord } from '@/lib/store/types';
import { alertBox, field, muted, noticeBox, primaryButton, smallButton } from './styles';

const TEXT = {
  heading: 'API keys',
  intro:
    'A key lets a program act as you: send it as "Authorization: Bearer <key>" to POST /api/chat. Keep it secret; revoke it when it is no longer needed.',
  name: 'Key name',
  create: 'Create key',
  shownOnce: 'Copy this key now: it is shown only once.',
  none: 'No keys yet.',
  created: 'Created',
  lastUsed: 'Last used',
  never: 'never',
  revoked: 'revoked',
  revoke: 'Revoke',
  revokeLabel: (name: string) => `Revoke the key ${name}`,
  columnName: 'Name',
  columnKey: 'Key',
  columnState: 'State',
};

const when = (t?: number) => (t === undefined ? TEXT.never : new Date(t).toLocaleString());

export function ApiKeys({ initial }: { initial: ApiKeyRecord[] }) {
  const [keys, setKeys] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  async function refresh() {
    const answer = await listApiKeys();
    if (answer.ok) setKeys(answer.value);
  }

  async function create(form: FormData) {
    setError(null);
    const answer = await createApiKey(String(form.get('name') ?? ''));
    if (!answer.ok) return setError(answer.error);
    setSecret(answer.value.secret);
    await refresh();
  }

  async function revoke(id: string) {
    setError(null);
    const answer = await revokeApiKey(id);
    if (!answer.ok) setError(answer.error);
    await refresh();
  }

  return (
    <section aria-labelledby="api-keys" className="flex flex-col gap-3">
      <h2 id="api-keys" className="text-lg font-semibold">
        {TEXT.heading}
      </h2>
      <p className={muted}>{TEXT.intro}</p>
      {error && (
        <p role="alert" className={alertBox}>
          {error}
        </p>
      )}
      <form action={create} className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-sm font-medium">
          {TEXT.name}
          <input name="name" required maxLength={100} className={field} />
        </label>
        <button type="submit" className={primaryButton}>
          {TEXT.create}
        </button>
      </form>
      {secret && (
        <div role="status" className={noticeBox}>
          <p>{TEXT.shownOnce}</p>
          <code data-testid="new-api-key" className="block break-all select-all">
            {secret}
          </code>
        </div>
      )}
      {keys.length === 0 ? (
        <p className={muted}>{TEXT.none}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr>
              <th className="py-1">{TEXT.columnName}</th>
              <th>{TEXT.columnKey}</th>
              <th>{TEXT.created}</th>
              <th>{TEXT.lastUsed}</th>
              <th>{TEXT.columnState}</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id} className="border-t border-neutral-200 dark:border-neutral-800">
                <td className="py-1">{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{when(k.createdAt)}</td>
                <td>{when(k.lastUsedAt)}</td>
                <td>
                  {k.revokedAt !== undefined ? (
                    TEXT.revoked
                  ) : (
                    <button
                      type="button"
                      aria-label={TEXT.revokeLabel(k.name)}
                      onClick={() => void revoke(k.id)}
                      className={smallButton}
                    >
                      {TEXT.revoke}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
