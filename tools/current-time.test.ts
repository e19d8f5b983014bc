import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CurrentTimeTool, formatTimeIn } from './current-time';
import { TOOL_REGISTRY } from './registry';
import { runTool } from './run-tool';

const ctx = { files: [], lang: 'en' as const, messages: [] };
const instant = new Date('2026-11-30T04:37:12Z');

describe('formatTimeIn', () => {
  it('formats UTC by default', () => {
    expect(formatTimeIn(instant)).toBe('2026-11-30 04:37:12 (UTC, Monday)');
  });

  it('converts to the given zone, including the date and weekday change', () => {
    expect(formatTimeIn(instant, 'Asia/Shanghai')).toBe('2026-11-30 12:37:12 (Asia/Shanghai, Monday)');
    expect(formatTimeIn(instant, 'America/Los_Angeles')).toBe('2026-11-29 20:37:12 (America/Los_Angeles, Sunday)');
  });

  it('uses a 24-hour clock with midnight as 00', () => {
    expect(formatTimeIn(new Date('2026-01-01T00:05:00Z'), 'UTC')).toBe('2026-01-01 00:05:00 (UTC, Thursday)');
  });

  it('rejects an unknown zone clearly', () => {
    expect(() => formatTimeIn(instant, 'Mars/Olympus')).toThrow("Unknown time zone 'Mars/Olympus'");
  });
});

describe('current_time tool', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(instant);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is registered and reports the current time', async () => {
    expect(TOOL_REGISTRY.get('current_time')).toBe(CurrentTimeTool);
    expect(await runTool(new CurrentTimeTool(), '{}', ctx)).toEqual({
      ok: true,
      content: '2026-11-30 04:37:12 (UTC, Monday)',
    });
    expect(await runTool(new CurrentTimeTool(), '{"timezone": "Europe/Berlin"}', ctx)).toEqual({
      ok: true,
      content: '2026-11-30 05:37:12 (Europe/Berlin, Monday)',
    });
  });

  it('turns an unknown zone into an error the model can read', async () => {
    const result = await runTool(new CurrentTimeTool(), '{"timezone": "Nowhere/Land"}', ctx);
    expect(result.ok).toBe(false);
    expect(result.content).toContain("Error: Unknown time zone 'Nowhere/Land'");
  });
});
