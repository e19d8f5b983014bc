// assistant_weather_bot: an Assistant with two tools and a document. It looks up the weather of a place, draws a
// picture of it, and picks a poem that fits the weather from the document it was given, quoting only poems that are
// there (Qwen-Agent's examples/assistant_weather_bot.py, ported).
//
//   npx tsx examples/assistant_weather_bot.ts ["What's the weather in Hangzhou?"]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope with
// DASHSCOPE_API_KEY. The weather comes from Open-Meteo (no key needed) where upstream asks AMap (a key and a city
// code table); the picture from my_image_gen (assistant_add_custom_tool.ts) where upstream calls DashScope.
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  allowLocalFileStaging,
  Assistant,
  BaseTool,
  typewriterPrint,
  type Message,
  type ToolContext,
} from '@agent-studio/core';
import './assistant_add_custom_tool'; // registers my_image_gen

/** WMO weather interpretation codes, as Open-Meteo reports them. */
const WEATHER_CODES: [number, string][] = [
  [0, 'clear sky'],
  [3, 'partly cloudy'],
  [48, 'fog'],
  [57, 'drizzle'],
  [67, 'rain'],
  [77, 'snow'],
  [82, 'rain showers'],
  [86, 'snow showers'],
  [99, 'thunderstorm'],
];

function describeCode(code: number): string {
  return WEATHER_CODES.find(([upTo]) => code <= upTo)?.[1] ?? `weather code ${code}`;
}

/** The current weather of a place: Open-Meteo's geocoding, then its forecast API (their URLs are in the config). */
export class OpenMeteoWeather extends BaseTool {
  name = 'open_meteo_weather';
  description = 'Get the current weather of a city or district.';
  parameters = {
    type: 'object',
    properties: { location: { type: 'string', description: 'The place, e.g. "Haidian" or "Hangzhou"' } },
    required: ['location'],
  };

  private async getJson(url: URL, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const timeout = AbortSignal.timeout(15_000);
    const res = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    if (!res.ok) throw new Error(`${url.host} answered HTTP ${res.status}`);
    return (await res.json()) as Record<string, unknown>;
  }

  async call(params: string, ctx: ToolContext) {
    const { location } = this.parseArgs<{ location: string }>(params);
    const geocoding = String(this.cfg.geocoding_url ?? 'https://geocoding-api.open-meteo.com/v1/search');
    const forecast = String(this.cfg.forecast_url ?? 'https://api.open-meteo.com/v1/forecast');

    const search = new URL(geocoding);
    search.search = new URLSearchParams({ name: location, count: '1', format: 'json' }).toString();
    const found = (await this.getJson(search, ctx.signal)).results as
      { name: string; country?: string; latitude: number; longitude: number }[] | undefined;
    const place = found?.[0];
    if (!place) throw new Error(`No place called "${location}" was found.`);

    const query = new URL(forecast);
    query.search = new URLSearchParams({
      latitude: String(place.latitude),
      longitude: String(place.longitude),
      current: 'temperature_2m,relative_humidity_2m,weather_code,wind_speed_10m',
    }).toString();
    const current = (await this.getJson(query, ctx.signal)).current as Record<string, number>;
    const where = [place.name, place.country].filter(Boolean).join(', ');
    return (
      `${where}: ${describeCode(current.weather_code!)}, ${current.temperature_2m} °C, ` +
      `humidity ${current.relative_humidity_2m} %, wind ${current.wind_speed_10m} km/h`
    );
  }
}

export const POEMS = fileURLToPath(new URL('./resource/weather_poems.md', import.meta.url));

export interface WeatherBotOptions {
  query?: string;
  /** A document given with the question (default: the poems); null for none. */
  file?: string | null;
  /** Other addresses for the tools' services: Open-Meteo's two APIs, the image service. */
  services?: { geocodingUrl?: string; forecastUrl?: string; imageServer?: string };
  write?: (text: string) => void;
}

export async function main({
  query = "What's the weather in Haidian today?",
  file = POEMS,
  services = {},
  write = (text) => process.stdout.write(text),
}: WeatherBotOptions = {}): Promise<Message[]> {
  allowLocalFileStaging(); // the poems are a local file this script's own user names
  const bot = new Assistant({
    llm: { model: process.env.OPENAI_MODEL ?? 'qwen-max', model_server: process.env.OPENAI_BASE_URL ?? 'dashscope' },
    name: 'Weather bot',
    description: 'Looks up the weather and draws pictures',
    systemMessage:
      'You are a weather assistant who can look up the weather and draw pictures. Look up the weather of the place ' +
      'the user names, then draw a picture of that place with the drawing tool, and describe the weather with one ' +
      'poem chosen from the given document. Quote no poem that is not in the document.',
    functionList: [
      new OpenMeteoWeather({ geocoding_url: services.geocodingUrl, forecast_url: services.forecastUrl }),
      { name: 'my_image_gen', image_server: services.imageServer },
    ],
  });

  const content = file ? [{ text: query }, { file }] : query;
  let printed = '';
  let response: Message[] = [];
  for await (response of bot.run([{ role: 'user', content }])) printed = typewriterPrint(response, printed, write);
  write('\n');
  return response;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main({ query: process.argv[2] }).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
