'use client';
// A button that copies `text` in one click and says so for two seconds (an API key, the base URL, an invite link).
import { useState } from 'react';
import { smallButton } from './styles';

export function CopyButton({ text, label, copiedLabel }: { text: string; label: string; copiedLabel: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={smallButton}
      onClick={() =>
        void navigator.clipboard?.writeText(text).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 2000);
          },
          () => setCopied(false),
        )
      }
    >
      {copied ? copiedLabel : label}
    </button>
  );
}
