'use client';
// A button that opens the file picker for one JSON file and hands over its text (agent import, run import).
import { useRef, type ReactNode } from 'react';

export function JsonFileButton({
  className,
  inputLabel,
  onFile,
  maxBytes,
  onTooLarge,
  busy = false,
  children,
}: {
  className: string;
  /** The hidden file input's accessible name. */
  inputLabel: string;
  onFile: (text: string, name: string) => void | Promise<void>;
  /** A file larger than this is not read: `onTooLarge` is told its name instead. */
  maxBytes?: number;
  onTooLarge?: (name: string) => void;
  /** While the last file is still being handled: the button says it is unavailable (and keeps the focus) and opens
   *  no picker. */
  busy?: boolean;
  children: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className={`${className} aria-disabled:cursor-wait aria-disabled:opacity-50`}
        aria-disabled={busy || undefined}
        onClick={() => {
          if (!busy) input.current?.click();
        }}
      >
        {children}
      </button>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        aria-label={inputLabel}
        className="hidden"
        onChange={async (e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          if (maxBytes !== undefined && file.size > maxBytes) return onTooLarge?.(file.name);
          await onFile(await file.text(), file.name);
        }}
      />
    </>
  );
}
