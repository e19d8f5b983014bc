'use client';
// Sign in with an email and a password (or with the team's OpenID Connect provider, when the server has one).
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { authRequest, useAuthText } from './auth-request';
import { LabelledInput } from './labelled-input';
import { alertBox, link, primaryButton } from './styles';

export function SignInForm({
  next,
  oidcName,
  canSignUp,
}: {
  next: string;
  oidcName: string | null;
  canSignUp: boolean;
}) {
  const t = useTranslations('signIn');
  const said = useAuthText();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Kept across a failed try (React resets a form's uncontrolled fields after its action): only the password goes.
  const [email, setEmail] = useState('');

  async function submit(form: FormData) {
    setBusy(true);
    setError(null);
    const answer = await authRequest('sign-in/email', { email: form.get('email'), password: form.get('password') });
    if (answer.ok) {
      window.location.assign(next);
      return;
    }
    setError(said(answer));
    setBusy(false);
  }

  async function oidc() {
    setBusy(true);
    const answer = await authRequest<{ url?: string }>('sign-in/social', { provider: 'oidc', callbackURL: next });
    if (answer.ok && answer.data?.url) window.location.assign(answer.data.url);
    else {
      setError(said(answer));
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      {error && (
        <p role="alert" className={alertBox}>
          {error}
        </p>
      )}
      <form action={submit} className="flex flex-col gap-3">
        <LabelledInput
          id="email"
          label={t('email')}
          type="email"
          required
          autoFocus
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <LabelledInput id="password" label={t('password')} type="password" required autoComplete="current-password" />
        <button type="submit" disabled={busy} className={primaryButton}>
          {busy ? t('busy') : t('submit')}
        </button>
      </form>
      {oidcName && (
        <button type="button" disabled={busy} onClick={() => void oidc()} className={primaryButton}>
          {t('oidc', { name: oidcName })}
        </button>
      )}
      {canSignUp && (
        <p className="text-sm">
          {t('noAccount')}{' '}
          <a href="/sign-up" className={link}>
            {t('createAccount')}
          </a>
        </p>
      )}
    </div>
  );
}
