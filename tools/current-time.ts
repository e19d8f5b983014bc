// `current_time`: the wall-clock time in an IANA time zone.
import { BaseTool } from './base-tool';
import { registerTool } from './registry';

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      weekday: 'long',
    });
  } catch {
    throw new Error(
      `Unknown time zone '${timeZone}'. Use an IANA name such as 'UTC', 'Europe/Berlin' or 'Asia/Shanghai'.`,
    );
  }
}

/** e.g. "2026-11-30 04:37:12 (UTC, Monday)". */
export function formatTimeIn(date: Date, timeZone = 'UTC'): string {
  const fmt = formatterFor(timeZone);
  const parts: Record<string, string> = {};
  for (const p of fmt.formatToParts(date)) parts[p.type] = p.value;
  const zone = fmt.resolvedOptions().timeZone;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} (${zone}, ${parts.weekday})`;
}

export class CurrentTimeTool extends BaseTool {
  name = 'current_time';
  description = 'Get the current date, time and weekday in a time zone.';
  parameters = {
    type: 'object',
    properties: {
      timezone: { type: 'string', description: "An IANA time zone name such as 'Asia/Shanghai'. Defaults to UTC." },
    },
  };

  async call(params: string): Promise<string> {
    const { timezone } = this.parseArgs<{ timezone?: string }>(params);
    return formatTimeIn(new Date(), timezone?.trim() || 'UTC');
  }
}

registerTool('current_time')(CurrentTimeTool);
