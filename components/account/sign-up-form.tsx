'use client';
// Create an account: an email and a password (and a name, optional). The first account of a server is its admin.
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { authRequest, useAuthText } from './auth-request';
import { alertBox, field, muted, primaryButton } from './styles';

export function SignUpForm({ invite, minPassword }: { invite?: string; minPassword: number }) {
  const t = useTranslations('signUp');
  const said = useAuthText();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(form: FormData) {
    setBusy(true);
    setError(null);
    const answer = await authRequest('sign-up/email', {
      name: form.get('name'),
      email: form.get('email'),
      password: form.get('password'),
      invite,
    });
    if (answer.ok) {
      // A full load, not a client navigation: nothing of the page's state outlives the change of user.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign('/');
      return;
    }
    setError(said(answer));
    setBusy(false);
  }

  return (
    <form action={submit} className="flex flex-col gap-3">
      {error && (
        <p role="alert" className={alertBox}>
          {error}
        </p>
      )}
      <label htmlFor="name" className="text-sm font-medium">
        {t('name')}
      </label>
      <input id="name" name="name" type="text" autoComplete="name" className={field} />
      <label htmlFor="email" className="text-sm font-medium">
        {t('email')}
      </label>
      <input id="email" name="email" type="email" required autoFocus autoComplete="username" className={field} />
      <label htmlFor="password" className="text-sm font-medium">
        {t('password')}
      </label>
      <input
        id="password"
        name="password"
        type="password"
        required
        minLength={minPassword}
        autoComplete="new-password"
        aria-describedby="password-hint"
        className={field}
      />
      <p id="password-hint" className={muted}>
        {t('passwordHint', { min: minPassword })}
      </p>
      <button type="submit" disabled={busy} className={primaryButton}>
        {busy ? t('busy') : t('submit')}
      </button>
    </form>
  );
}
