// Long tasks as the page sees them: a PerformanceObserver installed before the page's own scripts.

export interface LongTask {
  /** Epoch ms in the page (comparable with Date.now() in the bench). */
  start: number;
  duration: number;
}

declare global {
  interface Window {
    __bench?: { longTasks: LongTask[] };
  }
}

/** Pass to page.addInitScript: records every long task in window.__bench.longTasks. */
export function recordLongTasks(): void {
  const bench: { longTasks: LongTask[] } = { longTasks: [] };
  window.__bench = bench;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      bench.longTasks.push({ start: performance.timeOrigin + e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}
