'use client';
// Create an account: an email and a password (and a name, optional). The first account of a server is its admin.
import { useState } from 'react';
import { authRequest } from './auth-request';
import { alertBox, field, muted, primaryButton } from './styles';

const TEXT = {
  name: 'Name (optional)',
  email: 'Email',
  password: 'Password',
  passwordHint: (min: number) => `At least ${min} characters.`,
  submit: 'Create account',
  busy: 'Creating the account…',
};

export function SignUpForm({ invite, minPassword }: { invite?: string; minPassword: number }) {
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
    setError(answer.message);
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
        {TEXT.name}
      </label>
      <input id="name" name="name" type="text" autoComplete="name" className={field} />
      <label htmlFor="email" className="text-sm font-medium">
        {TEXT.email}
      </label>
      <input id="email" name="email" type="email" required autoFocus autoComplete="username" className={field} />
      <label htmlFor="password" className="text-sm font-medium">
        {TEXT.password}
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
        {TEXT.passwordHint(minPassword)}
      </p>
      <button type="submit" disabled={busy} className={primaryButton}>
        {busy ? TEXT.busy : TEXT.submit}
      </button>
    </form>
  );
}
