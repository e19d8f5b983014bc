'use client';
// The admin's list of users: disable or enable an account, delete one (asked twice), set a new password for one.
import { useTranslations } from 'next-intl';
import { type KeyboardEvent, useState } from 'react';
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

  /** Closes the row's confirmation or password form and gives the focus back to the button that opened it, as
   *  Escape does (the focused element is removed with the form, which would leave the focus on the page's body). */
  function close(opener: string) {
    setDeleting(null);
    setResetting(null);
    requestAnimationFrame(() => document.getElementById(opener)?.focus());
  }
  const escapeCloses = (opener: string) => (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    close(opener);
  };

  async function remove(user: UserRow) {
    setError(null);
    setNotice(null);
    const answer = await deleteUser(user.id);
    if (!answer.ok) {
      setError(said(failureText(answer)));
      close(`delete-${user.id}`);
      return refresh();
    }
    setDeleting(null);
    setNotice(t('deleted', { email: user.email }));
    await refresh();
    // The row went with its buttons: the focus goes to the list's heading, not to the page's body.
    requestAnimationFrame(() => document.getElementById('admin-users')?.focus());
  }

  async function reset(user: UserRow, form: FormData) {
    setError(null);
    const answer = await resetUserPassword(user.id, String(form.get('password') ?? ''));
    if (!answer.ok) return setError(said(failureText(answer)));
    close(`reset-${user.id}`);
    setNotice(t('passwordSet', { email: user.email }));
  }

  return (
    <section aria-labelledby="admin-users" className="flex flex-col gap-3">
      <h2 id="admin-users" tabIndex={-1} className="text-lg font-semibold">
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
                  <button
                    id={`reset-${u.id}`}
                    type="button"
                    disabled={!hydrated}
                    onClick={() => setResetting(u.id)}
                    className={smallButton}
                  >
                    {t('resetPassword')}
                  </button>
                  {u.id !== me && (
                    <button
                      id={`delete-${u.id}`}
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
                      onKeyDown={escapeCloses(`delete-${u.id}`)}
                    >
                      <p>{t('confirmDelete', { email: u.email })}</p>
                      <div className="flex gap-1">
                        <button type="button" onClick={() => void remove(u)} className={smallButton}>
                          {t('confirm')}
                        </button>
                        {/* The focus starts on the answer that loses nothing. */}
                        <button type="button" autoFocus onClick={() => close(`delete-${u.id}`)} className={smallButton}>
                          {t('cancel')}
                        </button>
                      </div>
                    </div>
                  )}
                  {resetting === u.id && (
                    <form
                      action={(f) => reset(u, f)}
                      onKeyDown={escapeCloses(`reset-${u.id}`)}
                      className="flex w-full flex-wrap gap-1"
                    >
                      <input
                        autoFocus
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
                      <button type="button" onClick={() => close(`reset-${u.id}`)} className={smallButton}>
                        {t('cancelPassword')}
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
