'use client';
import { useEffect, useState } from 'react';

type Theme = 'light' | 'dark';

/** Light or dark, remembered; follows the system until the user picks. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme | undefined>();
  useEffect(() => {
    const saved = localStorage.getItem('theme') as Theme | null;
    setTheme(saved ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  }, []);
  useEffect(() => {
    if (theme) document.documentElement.classList.toggle('dark', theme === 'dark');
  }, [theme]);
  if (!theme) return null;
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      aria-label={`Switch to ${next} theme`}
      onClick={() => {
        localStorage.setItem('theme', next);
        setTheme(next);
      }}
      className="rounded-lg px-2 py-1 hover:bg-neutral-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:hover:bg-neutral-800"
    >
      {theme === 'dark' ? '☀' : '☾'}
    </button>
  );
}
