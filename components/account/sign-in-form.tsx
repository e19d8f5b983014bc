'use client';
// Sign in with an email and a password (or with the team's OpenID Connect provider, when the server has one). A
// plain form posting to the endpoint (lib/auth/form-post.ts), so it works before the page's script has run; once it
// has, the page sends it itself and says a refusal in place.
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { withNextPath } from '@/lib/http/next-path';
import { authRequest, useAuthText } from './auth-request';
import { LabelledInput } from './labelled-input';
import { alertBox, link, primaryButton } from './styles';

export function SignInForm({
  next,
  oidcName,
  canSignUp,
  refused,
}: {
  next: string;
  oidcName: string | null;
  canSignUp: boolean;
  /** Why the last post of the form (before the script ran) was refused, said by the page. */
  refused?: string;
}) {
  const t = useTranslations('signIn');
  const said = useAuthText();
  const [error, setError] = useState<string | null>(refused ?? null);
  const [busy, setBusy] = useState(false);

  async function submit(form: HTMLFormElement) {
    setBusy(true);
    setError(null);
    const fields = new FormData(form);
    const answer = await authRequest('sign-in/email', { email: fields.get('email'), password: fields.get('password') });
    if (answer.ok) {
      window.location.assign(next);
      return;
    }
    // The email stays for the next try; the password goes.
    const password = form.elements.namedItem('password');
    if (password instanceof HTMLInputElement) password.value = '';
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
      <form
        method="post"
        action="/api/auth/sign-in/email"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(e.currentTarget);
        }}
        className="flex flex-col gap-3"
      >
        <input type="hidden" name="next" value={next} />
        <LabelledInput id="email" label={t('email')} type="email" required autoFocus autoComplete="username" />
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
          <a href={withNextPath('/sign-up', next)} className={link}>
            {t('createAccount')}
          </a>
        </p>
      )}
    </div>
  );
}
