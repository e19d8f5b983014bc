// `amap_weather`: Qwen-Agent's weather tool, through AMap's web service (AMAP_TOKEN, upstream's variable; AMAP_URL
// for another address of the same API). The place is looked up by AMap's own geocoding (its adcode), then its live
// weather is asked for. Offered only when the key is configured. Only the configured address is ever reached.
import type { AmapEnvConfig } from '../lib/config';
import { answerTooLarge, limitBody, responseTooLargeIn } from '../lib/net/bounded-body';
import { BaseTool, type ToolContext } from './base-tool';
import { registerTool } from './registry';
import { settingsOf, type ToolSettings } from './settings';

const TIMEOUT_MS = 15_000;
/** Most one AMap answer may be (bytes, as read): a place or its weather is a few KB. */
export const AMAP_ANSWER_MAX_BYTES = 1024 * 1024;

type Json = Record<string, unknown>;

async function amap(cfg: AmapEnvConfig, path: string, query: Record<string, string>, signal?: AbortSignal) {
  const url = new URL(path, cfg.url.endsWith('/') ? cfg.url : `${cfg.url}/`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  url.searchParams.set('key', cfg.token);
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const res = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout }).catch((e) => {
    throw new Error(timeout.aborted ? `AMap did not answer within ${TIMEOUT_MS} ms` : `AMap cannot be reached: ${e}`);
  });
  if (!res.ok) throw new Error(`AMap answered HTTP ${res.status}`);
  const data = (await limitBody(res, AMAP_ANSWER_MAX_BYTES)
    .json()
    .catch((e: unknown) => {
      if (responseTooLargeIn(e)) throw answerTooLarge('AMap', AMAP_ANSWER_MAX_BYTES);
    })) as Json | undefined;
  if (!data) throw new Error('AMap did not answer JSON');
  // AMap says status "0" and why (info, infocode) for a refused request: a bad key, a quota spent.
  if (String(data.status) !== '1')
    throw new Error(`AMap refused the request: ${String(data.info ?? 'no reason given')}`);
  return data;
}

export class AmapWeather extends BaseTool {
  name = 'amap_weather';
  description = 'Gets the current weather of a city or district in China (AMap).';
  parameters = {
    type: 'object',
    properties: {
      location: {
        type: 'string',
        description: 'The city or district, by its Chinese name; for 北京市海淀区 write 海淀区.',
      },
    },
    required: ['location'],
  };

  /** Not offered to the model until AMAP_TOKEN is set. */
  static unavailableReason(settings: ToolSettings): string | undefined {
    return settings.amap ? undefined : 'no AMap key: set AMAP_TOKEN in the server environment.';
  }

  async call(params: string, ctx: ToolContext) {
    const { location } = this.parseArgs<{ location: string }>(params);
    const cfg = settingsOf(ctx).amap;
    if (!cfg) throw new Error('amap_weather is not configured: set AMAP_TOKEN in the server environment.');
    const place = location.trim();
    if (!place) throw new Error('The location is empty.');
    const geo = await amap(cfg, 'v3/geocode/geo', { address: place }, ctx.signal);
    const code = (geo.geocodes as Json[] | undefined)?.[0]?.adcode;
    if (typeof code !== 'string' || !code)
      throw new Error(`AMap does not know the place "${place}": give a city or district name, such as 海淀区.`);
    const data = await amap(cfg, 'v3/weather/weatherInfo', { city: code, extensions: 'base' }, ctx.signal);
    const live = (data.lives as Json[] | undefined)?.[0];
    if (!live) throw new Error(`AMap has no weather for "${place}".`);
    const weather = String(live.weather ?? '');
    const temperature = String(live.temperature ?? '');
    return ctx.lang === 'zh'
      ? `${place}的天气是${weather}，温度是${temperature}度。`
      : `The weather in ${place}: ${weather}, ${temperature} °C.`;
  }
}

registerTool('amap_weather')(AmapWeather);
