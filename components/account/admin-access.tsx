'use client';
// How accounts come about (the sign-up mode, invite links) and which tools the other users may use.
import { useState } from 'react';
import { createInvite, listInvites, revokeInvite, updateServerSettings } from '@/app/actions/admin';
import type { InviteRecord, ServerSettings, SignUpMode } from '@/lib/store/types';
import { alertBox, field, muted, noticeBox, primaryButton, smallButton } from './styles';

const TEXT = {
  signUpHeading: 'Sign-up',
  signUpLabel: 'Who may create an account',
  modes: {
    open: 'Anyone who can reach the server',
    invite: 'Only people with an invite link',
    closed: 'Nobody (sign-up is closed)',
  } satisfies Record<SignUpMode, string>,
  invitesHeading: 'Invites',
  invitesIntro: (days: number) => `An invite link creates one account and expires after ${days} days.`,
  createInvite: 'Create invite link',
  linkOnce: 'Send this link to the person you invite; it is shown only once.',
  noInvites: 'No open invites.',
  expires: (t: number) => `expires ${new Date(t).toLocaleString()}`,
  created: (t: number) => `created ${new Date(t).toLocaleString()}`,
  revoke: 'Revoke',
  toolsHeading: 'Tools for users',
  toolsIntro: 'The admin may always use every tool; other users only those enabled here.',
  codeInterpreter: 'code_interpreter (runs Python on this server, in a sandbox)',
  web: 'Web tools (web_search, web_extractor: fetch pages from the internet)',
  saved: 'Saved.',
};

export function AdminAccess({
  settings: initialSettings,
  invites: initialInvites,
  inviteDays,
}: {
  settings: ServerSettings;
  invites: InviteRecord[];
  inviteDays: number;
}) {
  const [settings, setSettings] = useState(initialSettings);
  const [invites, setInvites] = useState(initialInvites);
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function save(patch: Partial<ServerSettings>) {
    setError(null);
    setSaved(false);
    const answer = await updateServerSettings(patch);
    if (!answer.ok) return setError(answer.error);
    setSettings(answer.value);
    setSaved(true);
  }

  async function refreshInvites() {
    const answer = await listInvites();
    if (answer.ok) setInvites(answer.value);
  }

  async function invite() {
    setError(null);
    const answer = await createInvite();
    if (!answer.ok) return setError(answer.error);
    setLink(answer.value.link);
    await refreshInvites();
  }

  async function revoke(id: string) {
    const answer = await revokeInvite(id);
    if (!answer.ok) setError(answer.error);
    await refreshInvites();
  }

  return (
    <div className="flex flex-col gap-6">
      {error && (
        <p role="alert" className={alertBox}>
          {error}
        </p>
      )}
      {saved && (
        <p role="status" className={muted}>
          {TEXT.saved}
        </p>
      )}
      <section aria-labelledby="admin-sign-up" className="flex flex-col gap-2">
        <h2 id="admin-sign-up" className="text-lg font-semibold">
          {TEXT.signUpHeading}
        </h2>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {TEXT.signUpLabel}
          <select
            value={settings.signUp}
            onChange={(e) => void save({ signUp: e.target.value as SignUpMode })}
            className={field}
          >
            {(Object.keys(TEXT.modes) as SignUpMode[]).map((m) => (
              <option key={m} value={m}>
                {TEXT.modes[m]}
              </option>
            ))}
          </select>
        </label>
      </section>
      <section aria-labelledby="admin-invites" className="flex flex-col gap-2">
        <h2 id="admin-invites" className="text-lg font-semibold">
          {TEXT.invitesHeading}
        </h2>
        <p className={muted}>{TEXT.invitesIntro(inviteDays)}</p>
        <div>
          <button type="button" onClick={() => void invite()} className={primaryButton}>
            {TEXT.createInvite}
          </button>
        </div>
        {link && (
          <div role="status" className={noticeBox}>
            <p>{TEXT.linkOnce}</p>
            <code data-testid="invite-link" className="block break-all select-all">
              {link}
            </code>
          </div>
        )}
        {invites.length === 0 ? (
          <p className={muted}>{TEXT.noInvites}</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm">
            {invites.map((i) => (
              <li key={i.id} className="flex items-center gap-2">
                <span>
                  {TEXT.created(i.createdAt)}, {TEXT.expires(i.expiresAt)}
                </span>
                <button type="button" onClick={() => void revoke(i.id)} className={smallButton}>
                  {TEXT.revoke}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="admin-tools" className="flex flex-col gap-2">
        <h2 id="admin-tools" className="text-lg font-semibold">
          {TEXT.toolsHeading}
        </h2>
        <p className={muted}>{TEXT.toolsIntro}</p>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={settings.userTools.codeInterpreter}
            onChange={(e) => void save({ userTools: { ...settings.userTools, codeInterpreter: e.target.checked } })}
          />
          {TEXT.codeInterpreter}
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={settings.userTools.web}
            onChange={(e) => void save({ userTools: { ...settings.userTools, web: e.target.checked } })}
          />
          {TEXT.web}
        </label>
      </section>
    </div>
  );
}
