'use client';
// Settings: whether the document tools come on by themselves, and why they are on or off for the open conversation
// (the rule is lib/chat/document-tools.ts, the one the server applies to each run).
import { useTranslations } from 'next-intl';
import { documentToolsRule } from '@/lib/chat/document-tools';
import { isImageKind } from '@/lib/documents/image-kind';
import type { ConversationSettings } from '@/lib/store/types';
import { useChat } from './store';
import { useUploads } from './uploads';

/** Whether the open conversation has documents, as the server counts them: an upload not refused, or a message
 *  that carries a file. */
export function useHasDocuments(): boolean {
  // An image is no document (lib/chat/document-tools.ts).
  const uploaded = useUploads((s) => s.items.some((item) => item.state !== 'error' && !isImageKind(item.kind)));
  const carried = useChat((s) =>
    s.turns.some((turn) => typeof turn.content !== 'string' && turn.content.some((i) => i.file)),
  );
  return uploaded || carried;
}

export function DocumentToolsSetting({ settings }: { settings: ConversationSettings }) {
  const t = useTranslations('settings.documentTools');
  const update = useChat((s) => s.updateSettings);
  const { reason } = documentToolsRule(settings, useHasDocuments());
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          className="mt-1"
          aria-describedby="settings-document-tools-status"
          checked={settings.documentTools !== 'off'}
          onChange={(e) => void update({ documentTools: e.target.checked ? 'auto' : 'off' })}
        />
        <span className="font-medium">{t.rich('auto', { code: (chunks) => <code>{chunks}</code> })}</span>
      </label>
      <p id="settings-document-tools-status" role="status" className="text-neutral-600 dark:text-neutral-400">
        {t(reason)}
      </p>
    </div>
  );
}
