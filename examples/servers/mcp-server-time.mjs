// Time and time zones as an MCP server over stdio, for assistant_qwen3.ts: the tools of the Python `mcp-server-time`
// that upstream's example runs with uvx, written with the MCP SDK and the runtime's time zone data (Intl).
//
//   node examples/servers/mcp-server-time.mjs [--local-timezone=Asia/Shanghai]
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const { values } = parseArgs({ options: { 'local-timezone': { type: 'string' } } });
const localZone = values['local-timezone'] ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Throws a readable error for a name the time zone database does not have. */
function checkZone(zone) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new Error(`Unknown time zone "${zone}": use an IANA name such as Europe/London.`);
  }
}

/** The wall clock of `instant` in `zone`: ISO 8601 with the zone's offset, and the day of the week. */
function wallClock(instant, zone) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'long',
      timeZoneName: 'longOffset',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.replace('GMT', '');
  return {
    timezone: zone,
    datetime: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`,
    day_of_week: parts.weekday,
    offsetMinutes:
      offset === '+00:00'
        ? 0
        : (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))),
  };
}

const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] });
const failure = (e) => ({ isError: true, content: [{ type: 'text', text: e.message }] });
const shown = ({ offsetMinutes, ...rest }) => rest;

const server = new McpServer({ name: 'time', version: '1.0.0' });

server.registerTool(
  'get_current_time',
  {
    description: `The current time in a time zone (IANA name; the local one is ${localZone}).`,
    inputSchema: { timezone: z.string().describe(`IANA time zone name, e.g. ${localZone}`) },
  },
  async ({ timezone }) => {
    try {
      checkZone(timezone);
      return text(shown(wallClock(new Date(), timezone)));
    } catch (e) {
      return failure(e);
    }
  },
);

server.registerTool(
  'convert_time',
  {
    description: 'Convert a time of today (HH:MM, 24-hour clock) from one time zone to another.',
    inputSchema: {
      source_timezone: z.string(),
      time: z.string().describe('HH:MM'),
      target_timezone: z.string(),
    },
  },
  async ({ source_timezone, time, target_timezone }) => {
    try {
      checkZone(source_timezone);
      checkZone(target_timezone);
      const hm = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
      if (!hm) throw new Error(`Time "${time}" is not HH:MM on a 24-hour clock.`);
      const today = wallClock(new Date(), source_timezone);
      const [y, m, d] = today.datetime.slice(0, 10).split('-').map(Number);
      const instant = new Date(Date.UTC(y, m - 1, d, Number(hm[1]), Number(hm[2])) - today.offsetMinutes * 60_000);
      const source = wallClock(instant, source_timezone);
      const target = wallClock(instant, target_timezone);
      const diff = (target.offsetMinutes - source.offsetMinutes) / 60;
      return text({
        source: shown(source),
        target: shown(target),
        time_difference: `${diff >= 0 ? '+' : ''}${diff}h`,
      });
    } catch (e) {
      return failure(e);
    }
  },
);

await server.connect(new StdioServerTransport());
