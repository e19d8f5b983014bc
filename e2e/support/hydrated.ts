import type { Locator } from '@playwright/test';

/** Waits until React has hydrated the element: the server's HTML shows it earlier, and a click there does nothing. */
export async function hydrated(element: Locator): Promise<void> {
  await element.evaluate(
    (el) =>
      new Promise<void>((resolve) => {
        const ready = () => Object.keys(el).some((k) => k.startsWith('__reactFiber'));
        if (ready()) return resolve();
        const timer = setInterval(() => {
          if (!ready()) return;
          clearInterval(timer);
          resolve();
        }, 20);
      }),
  );
}
