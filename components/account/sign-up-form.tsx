'use client';
// Create an account: an email and a password (and a name, optional). The first account of a server is its admin; on a
// server reachable beyond its machine it also asks for the setup code from the server's log (lib/config/setup-code.ts).
// A plain form posting to the endpoint (lib/auth/form-post.ts), so it works before the page's script has run; once
// it has, the page sends it itself and says a refusal in place, keeping what was typed.
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { authRequest, useAuthText } from './auth-request';
import { LabelledInput } from './labelled-input';
import { alertBox, muted, primaryButton } from './styles';

export function SignUpForm({
  invite,
  next,
  minPassword,
  setupCode,
  refused,
}: {
  invite?: string;
  /** Where the new account goes once made: the page asked for before signing up (a safe path on this app). */
  next: string;
  minPassword: number;
  /** Ask for the setup code (the first account, when the server is reachable beyond its machine). */
  setupCode?: boolean;
  /** Why the last post of the form (before the script ran) was refused, said by the page. */
  refused?: string;
}) {
  const t = useTranslations('signUp');
  const said = useAuthText();
  const [error, setError] = useState<string | null>(refused ?? null);
  const [busy, setBusy] = useState(false);

  async function submit(form: FormData) {
    setBusy(true);
    setError(null);
    const answer = await authRequest('sign-up/email', Object.fromEntries(form));
    if (answer.ok) {
      // A full load, not a client navigation: nothing of the page's state outlives the change of user.
      window.location.assign(next);
      return;
    }
    setError(said(answer));
    setBusy(false);
  }

  return (
    <form
      method="post"
      action="/api/auth/sign-up/email"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(new FormData(e.currentTarget));
      }}
      className="flex flex-col gap-3"
    >
      {invite && <input type="hidden" name="invite" value={invite} />}
      <input type="hidden" name="next" value={next} />
      {error && (
        <p role="alert" className={alertBox}>
          {error}
        </p>
      )}
      <LabelledInput id="name" label={t('name')} type="text" autoComplete="name" />
      <LabelledInput id="email" label={t('email')} type="email" required autoFocus autoComplete="username" />
      <LabelledInput
        id="password"
        label={t('password')}
        type="password"
        required
        minLength={minPassword}
        autoComplete="new-password"
        aria-describedby="password-hint"
      />
      <p id="password-hint" className={muted}>
        {t('passwordHint', { min: minPassword })}
      </p>
      {setupCode && (
        <>
          <LabelledInput
            id="setupCode"
            label={t('setupCode')}
            type="text"
            required
            autoComplete="off"
            spellCheck={false}
            aria-describedby="setup-code-hint"
          />
          <p id="setup-code-hint" className={muted}>
            {t('setupCodeHint')}
          </p>
        </>
      )}
      <button type="submit" disabled={busy} className={primaryButton}>
        {busy ? t('busy') : t('submit')}
      </button>
    </form>
  );
}
