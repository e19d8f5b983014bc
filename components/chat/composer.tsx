'use client';
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { COMPOSER_TEXTBOX_ID, draftKey, focusComposerForKeyboard, useDraft } from './composer-draft';
import { DocumentList } from './document-list';
import { useFittingText } from './fitting-text';
import { MentionSuggestions } from './mention-suggestions';
import { useChat } from './store';
import { untilUploaded, useUploads } from './uploads';

/** Enter sends, Shift+Enter adds a line, Esc (or Stop) stops the run. */
export function Composer({ disabled }: { disabled?: boolean }) {
  const t = useTranslations('composer');
  const text = useDraft((s) => s.text);
  const setText = useDraft((s) => s.setText);
  const running = useChat((s) => Boolean(s.runningRunId));
  const send = useChat((s) => s.send);
  const stop = useChat((s) => s.stop);
  const box = useRef<HTMLTextAreaElement>(null);
  // Whole on a phone too: the keys' hint is left out where the box is too narrow for it (it was cut mid-word).
  const placeholder = useFittingText(
    box,
    disabled ? t('placeholderNoModel') : t('placeholder'),
    disabled ? t('placeholderNoModelShort') : t('placeholderShort'),
  );
  // The conversation a message goes to: the one being opened, from the moment it is asked for (its draft and
  // documents show at once, and what is typed while it loads stays with it).
  const activeId = useChat((s) => s.opening ?? s.activeId);
  const heldForOpen = useChat((s) => Boolean(s.heldForOpen));
  const uploadFiles = useUploads((s) => s.uploadFiles);

  const user = useChat((s) => s.chooser);
  // The conversation whose draft is shown (undefined: none yet; { activeId: undefined }: the new chat's).
  const shown = useRef<{ activeId?: string }>(undefined);

  useEffect(() => {
    void useUploads.getState().showConversation(activeId);
  }, [activeId]);

  // Each conversation's draft is its own (and the new chat's): switching shows the one typed there. A new chat that
  // becomes a conversation without the page moving (its first message, or an upload, made it) keeps what is in the box.
  useEffect(() => {
    const became =
      shown.current !== undefined &&
      shown.current.activeId === undefined &&
      activeId !== undefined &&
      useChat.getState().fromNewChat === activeId;
    useDraft.getState().show(draftKey(user, activeId), became);
    shown.current = { activeId };
  }, [user, activeId]);

  // Ready to type on load.
  useEffect(() => {
    focusComposerForKeyboard();
  }, []);

  // Stop goes when the answer ends (Send, disabled with nothing typed, takes its place): the focus it had goes to the
  // message box, as after Regenerate, not to the page. Moved as the run ends, before Stop is drawn away.
  const stopButton = useRef<HTMLButtonElement>(null);
  useEffect(
    () =>
      useChat.subscribe((now, before) => {
        if (before.runningRunId && !now.runningRunId && document.activeElement === stopButton.current)
          focusComposerForKeyboard();
      }),
    [],
  );

  // A message the server refused (the notice says why) comes back to the composer, unless something new was typed.
  const deliver = async (message: string) => {
    if (!(await send(message)) && !useDraft.getState().text) setText(message);
  };

  // A message sent while files are still uploading goes when they are up, so that it carries them.
  const [holding, setHolding] = useState(false);
  const submit = () => {
    if (!text.trim() || running || disabled || holding || heldForOpen) return;
    const message = text;
    setText('');
    // Files that failed never go with a message: sending leaves them behind (those failing meanwhile stay to be read).
    const uploads = useUploads.getState();
    void uploads.dismissFailed(uploads.items.filter((i) => i.state === 'error').map((i) => i.key));
    if (!uploads.items.some((i) => i.state === 'uploading')) return void deliver(message);
    setHolding(true);
    void untilUploaded().then(() => {
      setHolding(false);
      void deliver(message);
    });
  };

  return (
    <form
      className="border-t border-neutral-200 bg-white p-3 dark:border-neutral-800 dark:bg-neutral-950"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <DocumentList />
      <MentionSuggestions />
      {holding && (
        <p role="status" className="mx-auto mb-2 max-w-3xl text-sm text-neutral-700 dark:text-neutral-300">
          {t('holding')}
        </p>
      )}
      {heldForOpen && (
        <p role="status" className="mx-auto mb-2 max-w-3xl text-sm text-neutral-700 dark:text-neutral-300">
          {t('heldForOpen')}
        </p>
      )}
      <div className="mx-auto flex max-w-3xl items-end gap-2">
        {/* Named by its label: what a screen reader says is what the button shows. */}
        <input
          id="composer-upload"
          type="file"
          multiple
          className="peer sr-only"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void uploadFiles(files);
          }}
        />
        <label
          htmlFor="composer-upload"
          title={t('attachHint')}
          className="cursor-pointer rounded-lg border border-neutral-300 px-3 py-2 text-neutral-700 hover:bg-neutral-100 peer-focus-visible:ring-2 peer-focus-visible:ring-blue-600 dark:border-neutral-700 dark:text-neutral-200 dark:hover:bg-neutral-800"
        >
          {t('upload')}
        </label>
        <textarea
          ref={box}
          id={COMPOSER_TEXTBOX_ID}
          aria-label={t('message')}
          rows={Math.min(8, Math.max(1, text.split('\n').length))}
          value={text}
          placeholder={placeholder}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onPaste={(e) => {
            const files = [...e.clipboardData.files];
            if (!files.length) return;
            e.preventDefault();
            void uploadFiles(files);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            } else if (e.key === 'Escape' && running) {
              e.preventDefault();
              void stop();
            }
          }}
          className="min-h-[2.75rem] flex-1 resize-none rounded-lg border border-neutral-300 bg-white px-3 py-2 text-neutral-900 placeholder:text-neutral-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100 dark:placeholder:text-neutral-400"
        />
        {running ? (
          <button
            ref={stopButton}
            type="button"
            onClick={() => void stop()}
            className="rounded-lg bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500 focus-visible:ring-offset-2"
          >
            {t('stop')}
          </button>
        ) : (
          <button
            type="submit"
            disabled={disabled || holding || heldForOpen || !text.trim()}
            className="rounded-lg bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:bg-neutral-400 dark:disabled:bg-neutral-700"
          >
            {t('send')}
          </button>
        )}
      </div>
    </form>
  );
}
