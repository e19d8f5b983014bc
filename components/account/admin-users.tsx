'use client';
// The admin's list of users: disable or enable an account, delete one (asked twice), set a new password for one.
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { deleteUser, listUsers, resetUserPassword, setUserDisabled } from '@/app/actions/admin';
import type { UserRow } from '@/lib/auth/admin';
import { failureText, useCodedText } from '../chat/server-text';
import { alertBox, field, noticeBox, smallButton } from './styles';
import { useHydrated } from '../use-hydrated';

export function AdminUsers({ initial, me }: { initial: UserRow[]; me: string }) {
  const t = useTranslations('admin.users');
  const hydrated = useHydrated();
  const said = useCodedText('errors');
  const [users, setUsers] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [resetting, setResetting] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  async function refresh() {
    const answer = await listUsers();
    if (answer.ok) setUsers(answer.value);
  }

  async function toggle(user: UserRow) {
    setError(null);
    setNotice(null);
    const answer = await setUserDisabled(user.id, !user.disabled);
    if (!answer.ok) setError(said(failureText(answer)));
    await refresh();
  }

  async function remove(user: UserRow) {
    setError(null);
    setNotice(null);
    const answer = await deleteUser(user.id);
    setDeleting(null);
    if (!answer.ok) setError(said(failureText(answer)));
    else setNotice(t('deleted', { email: user.email }));
    await refresh();
  }

  async function reset(user: UserRow, form: FormData) {
    setError(null);
    const answer = await resetUserPassword(user.id, String(form.get('password') ?? ''));
    if (!answer.ok) return setError(said(failureText(answer)));
    setResetting(null);
    setNotice(t('passwordSet', { email: user.email }));
  }

  return (
    <section aria-labelledby="admin-users" className="flex flex-col gap-3">
      <h2 id="admin-users" className="text-lg font-semibold">
        {t('heading')}
      </h2>
      {error && (
        <p role="alert" className={alertBox}>
          {error}
        </p>
      )}
      {notice && (
        <p role="status" className={noticeBox}>
          {notice}
        </p>
      )}
      {/* Scrolls sideways on a narrow screen rather than widening the page. */}
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead>
            <tr>
              <th className="py-1">{t('email')}</th>
              <th>{t('name')}</th>
              <th>{t('role')}</th>
              <th>{t('state')}</th>
              <th>{t('created')}</th>
              <th>{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id} className="border-t border-neutral-200 align-top dark:border-neutral-800">
                <td className="py-1">
                  {u.email} {u.id === me && t('you')}
                </td>
                <td>{u.name}</td>
                <td>{u.admin ? t('admin') : t('user')}</td>
                <td>{u.disabled ? t('disabled') : t('active')}</td>
                <td>{new Date(u.createdAt).toLocaleDateString()}</td>
                <td className="flex flex-wrap gap-1 py-1">
                  {u.id !== me && (
                    <button type="button" disabled={!hydrated} onClick={() => void toggle(u)} className={smallButton}>
                      {u.disabled ? t('enable') : t('disable')}
                    </button>
                  )}
                  <button type="button" disabled={!hydrated} onClick={() => setResetting(u.id)} className={smallButton}>
                    {t('resetPassword')}
                  </button>
                  {u.id !== me && (
                    <button
                      type="button"
                      disabled={!hydrated}
                      aria-label={t('deleteFor', { email: u.email })}
                      onClick={() => setDeleting(u.id)}
                      className={smallButton}
                    >
                      {t('delete')}
                    </button>
                  )}
                  {deleting === u.id && (
                    <div
                      role="alertdialog"
                      aria-label={t('deleteFor', { email: u.email })}
                      className="w-full space-y-1"
                    >
                      <p>{t('confirmDelete', { email: u.email })}</p>
                      <div className="flex gap-1">
                        <button type="button" onClick={() => void remove(u)} className={smallButton}>
                          {t('confirm')}
                        </button>
                        <button type="button" onClick={() => setDeleting(null)} className={smallButton}>
                          {t('cancel')}
                        </button>
                      </div>
                    </div>
                  )}
                  {resetting === u.id && (
                    <form action={(f) => reset(u, f)} className="flex w-full gap-1">
                      <input
                        name="password"
                        type="password"
                        required
                        minLength={8}
                        autoComplete="new-password"
                        aria-label={t('newPassword', { email: u.email })}
                        className={field}
                      />
                      <button type="submit" className={smallButton}>
                        {t('save')}
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
