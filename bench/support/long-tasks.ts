// Long tasks as the page sees them: PerformanceObservers installed before the page's own scripts. Besides the long
// tasks themselves: long animation frames (what ran in them: scripts by source, style and layout, render) and a
// 10 ms heartbeat whose gaps show how long the main thread was busy at a time, below 50 ms too.

import { quantile } from './stats';

export interface LongTask {
  /** Epoch ms in the page (comparable with Date.now() in the bench). */
  start: number;
  duration: number;
}

/** A long animation frame (over 50 ms), broken down. */
export interface LongFrame extends LongTask {
  /** ms of script in the frame (the scripts' own durations summed). */
  script: number;
  /** ms from the frame's render start to its end (rAF callbacks, style, layout, paint). */
  render: number;
  /** ms of style and layout in the render phase. */
  styleAndLayout: number;
  /** The longest scripts: where each began (invoker and source function) and how long it ran. */
  scripts: { invoker: string; source: string; duration: number; forcedLayout: number }[];
}

export interface FrameGap {
  at: number;
  gap: number;
}

interface BenchRecord {
  longTasks: LongTask[];
  longFrames: LongFrame[];
  /** Each heartbeat: when (epoch ms) and how long after the previous one (10 ms when the thread is free). */
  frames: FrameGap[];
}

declare global {
  interface Window {
    __bench?: BenchRecord;
  }
}

/**
 * Pass to page.addInitScript: records into window.__bench. Plain JavaScript in a string, because a function would be
 * passed as its transpiled source, which calls helpers (tsx's __name) that do not exist in the page.
 */
export const recordLongTasks = {
  content: `(() => {
  const bench = { longTasks: [], longFrames: [], frames: [] };
  window.__bench = bench;
  const epoch = (t) => performance.timeOrigin + t;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.longTasks.push({ start: epoch(e.startTime), duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  try {
    new PerformanceObserver((list) => {
      for (const f of list.getEntries()) {
        const end = f.startTime + f.duration;
        const scripts = [...f.scripts].sort((a, b) => b.duration - a.duration);
        bench.longFrames.push({
          start: epoch(f.startTime),
          duration: f.duration,
          script: scripts.reduce((n, s) => n + s.duration, 0),
          render: f.renderStart ? end - f.renderStart : 0,
          styleAndLayout: f.styleAndLayoutStart ? end - f.styleAndLayoutStart : 0,
          scripts: scripts.slice(0, 3).map((s) => ({
            invoker: s.invoker,
            source: (s.sourceFunctionName || '(anonymous)') + ' ' + s.sourceURL.replace(/^.*\\/_next\\//, ''),
            duration: s.duration,
            forcedLayout: s.forcedStyleAndLayoutDuration,
          })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    // no Long Animation Frames API: long tasks alone
  }
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    bench.frames.push({ at: epoch(now), gap: now - last });
    last = now;
  }, 10);
})();`,
};

/** p50 / p95 / p99 / max of heartbeat gaps, as one line. */
export function describeFrameGaps(frames: FrameGap[]): string {
  if (!frames.length) return 'no frames recorded';
  const gaps = frames.map((f) => f.gap);
  const at = (q: number) => quantile(gaps, q).toFixed(0);
  const over = (ms: number) => gaps.filter((g) => g > ms).length;
  return (
    `${gaps.length} beats; gap p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; ` +
    `over 33 ms: ${over(33)}, over 50 ms: ${over(50)}`
  );
}
