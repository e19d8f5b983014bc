'use client';
// How accounts come about (the sign-up mode, invite links: revoking one is asked first) and which tools the other users
// may use.
import { useTranslations } from 'next-intl';
import { type ReactNode, useState } from 'react';
import { createInvite, listInvites, revokeInvite, updateServerSettings } from '@/app/actions/admin';
import type { InviteRecord, ServerSettings, SignUpMode } from '@/lib/store/types';
import { failureText, useCodedText } from '../chat/server-text';
import { alertBox, field, muted, noticeBox, primaryButton, smallButton } from './styles';
import { useHydrated } from '../use-hydrated';
import { useSingleFlight } from '../use-single-flight';
import { useConfirm } from '../confirm-dialog';
import { CopyButton } from './copy-button';

const MODES: SignUpMode[] = ['open', 'invite', 'closed'];
const USER_TOOLS = ['codeInterpreter', 'web'] as const satisfies (keyof ServerSettings['userTools'])[];

export function AdminAccess({
  settings: initialSettings,
  invites: initialInvites,
  inviteDays,
}: {
  settings: ServerSettings;
  invites: InviteRecord[];
  inviteDays: number;
}) {
  const t = useTranslations('admin.access');
  const said = useCodedText('errors');
  const hydrated = useHydrated();
  const [settings, setSettings] = useState(initialSettings);
  const [invites, setInvites] = useState(initialInvites);
  // The link of the invite just made (shown once), until that invite is revoked or used.
  const [shown, setShown] = useState<{ id: string; link: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // One invite per click, however fast the clicks: the button is unavailable until its invite is made.
  const [inviting, runInvite] = useSingleFlight();
  const { dialog: confirmDialog, ask } = useConfirm();

  async function save(patch: Partial<ServerSettings>) {
    setError(null);
    setSaved(false);
    const answer = await updateServerSettings(patch);
    if (!answer.ok) return setError(said(failureText(answer)));
    setSettings(answer.value);
    setSaved(true);
  }

  async function refreshInvites() {
    const answer = await listInvites();
    if (!answer.ok) return;
    setInvites(answer.value);
    // A link whose invite is no longer open (revoked, used) is no longer offered to send.
    setShown((s) => (s && answer.value.some((i) => i.id === s.id) ? s : null));
  }

  const invite = () =>
    runInvite(async () => {
      setError(null);
      const answer = await createInvite();
      if (!answer.ok) return setError(said(failureText(answer)));
      const made = answer.value.invite;
      // Listed at once with its link (newest first, as the server lists them), not after the list is read again.
      setInvites((open) => [made, ...open.filter((i) => i.id !== made.id)]);
      setShown({ id: made.id, link: answer.value.link });
      await refreshInvites();
    });

  const created = (i: InviteRecord) => new Date(i.createdAt).toLocaleString();

  async function revoke(invite: InviteRecord) {
    const yes = await ask({
      title: t('confirmRevoke', { created: created(invite) }),
      message: t('confirmRevokeBody'),
      confirm: t('revoke'),
      cancel: t('cancelRevoke'),
    });
    // Cancelled: the dialog has given the focus back to the invite's Revoke.
    if (!yes) return;
    setError(null);
    const answer = await revokeInvite(invite.id);
    if (!answer.ok) setError(said(failureText(answer)));
    else {
      setInvites((open) => open.filter((i) => i.id !== invite.id));
      setShown((s) => (s?.id === invite.id ? null : s));
    }
    await refreshInvites();
    // Its row went with its Revoke: the keyboard goes on from the list's heading, not the page's body.
    if (answer.ok) document.getElementById('admin-invites')?.focus();
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
          {t('saved')}
        </p>
      )}
      <SettingsSection id="admin-sign-up" heading={t('signUpHeading')}>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t('signUpLabel')}
          <select
            value={settings.signUp}
            disabled={!hydrated}
            onChange={(e) => void save({ signUp: e.target.value as SignUpMode })}
            className={field}
          >
            {MODES.map((m) => (
              <option key={m} value={m}>
                {t(`modes.${m}`)}
              </option>
            ))}
          </select>
        </label>
      </SettingsSection>
      <SettingsSection id="admin-invites" heading={t('invitesHeading')}>
        <p className={muted}>{t('invitesIntro', { days: inviteDays })}</p>
        <div>
          <button
            type="button"
            disabled={!hydrated}
            aria-disabled={inviting || undefined}
            onClick={() => void invite()}
            className={primaryButton}
          >
            {t('createInvite')}
          </button>
        </div>
        {shown && (
          <div role="status" className={noticeBox}>
            <p>{t('linkOnce')}</p>
            <code data-testid="invite-link" className="block break-all select-all">
              {shown.link}
            </code>
            <CopyButton text={shown.link} label={t('copyLink')} copiedLabel={t('copied')} />
          </div>
        )}
        {invites.length === 0 ? (
          <p className={muted}>{t('noInvites')}</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm">
            {invites.map((i) => (
              <li key={i.id} className="flex items-center gap-2">
                <span>
                  {t('invite', {
                    created: created(i),
                    expires: new Date(i.expiresAt).toLocaleString(),
                  })}
                </span>
                <button
                  type="button"
                  disabled={!hydrated}
                  onClick={() => void revoke(i)}
                  aria-label={t('revokeLabel', { created: created(i) })}
                  className={smallButton}
                >
                  {t('revoke')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </SettingsSection>
      <SettingsSection id="admin-tools" heading={t('toolsHeading')}>
        <p className={muted}>{t('toolsIntro')}</p>
        {USER_TOOLS.map((tool) => (
          <label key={tool} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={settings.userTools[tool]}
              disabled={!hydrated}
              onChange={(e) => void save({ userTools: { ...settings.userTools, [tool]: e.target.checked } })}
            />
            {t(tool)}
          </label>
        ))}
      </SettingsSection>
      {confirmDialog}
    </div>
  );
}

function SettingsSection({ id, heading, children }: { id: string; heading: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h2 id={id} tabIndex={-1} className="text-lg font-semibold">
        {heading}
      </h2>
      {children}
    </section>
  );
}
