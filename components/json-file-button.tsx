'use client';
// A button that opens the file picker for one JSON file and hands over its text (agent import, run import).
import { useRef, type ReactNode } from 'react';

export function JsonFileButton({
  className,
  inputLabel,
  onFile,
  children,
}: {
  className: string;
  /** The hidden file input's accessible name. */
  inputLabel: string;
  onFile: (text: string, name: string) => void | Promise<void>;
  children: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className={className} onClick={() => input.current?.click()}>
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
          if (file) await onFile(await file.text(), file.name);
        }}
      />
    </>
  );
}
