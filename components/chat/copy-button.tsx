'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';

export interface CopyButtonProps {
  /** Called at click time, so the text copied is what is on screen then (a streaming block keeps growing). */
  getText: () => string;
  label?: string;
  className?: string;
}

const COPIED_MS = 1500;

async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // The async clipboard needs a secure context (https or localhost); a LAN address over http falls back here.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** A button named "Copy code" (or `label`) that reads "Copied" for a moment after a successful copy. */
export function CopyButton({ getText, label, className = '' }: CopyButtonProps) {
  const t = useTranslations('markdown');
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);

  return (
    <button
      type="button"
      onClick={() => void writeClipboard(getText()).then((ok) => setState(ok ? 'copied' : 'failed'))}
      className={`rounded px-2 py-0.5 text-xs font-medium text-neutral-700 hover:bg-neutral-200 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600 dark:text-neutral-300 dark:hover:bg-neutral-700 dark:focus-visible:outline-blue-400 ${className}`}
    >
      <span aria-live="polite">
        {state === 'copied' ? t('copied') : state === 'failed' ? t('copyFailed') : (label ?? t('copyCode'))}
      </span>
    </button>
  );
}
