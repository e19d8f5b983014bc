// `image_gen`: Qwen-Agent's image generation tool, through the OpenAI-compatible images endpoint of a connection
// (lib/llm/images.ts). The app gives it the endpoint of the run owner's connection that has an image model
// (cfg.endpoint); from code, cfg {model, model_server (or base_url), api_key} names one, else the environment's
// connection with OPENAI_IMAGE_MODEL. With none, the call is refused in plain words (the tool's result, never an
// exception). The image is checked and kept as every image a tool makes is, and the result shows it.
import { generateImage, type ImageEndpoint } from '../lib/llm/images';
import { BaseTool, type ToolContext } from './base-tool';
import { keepProducedImage } from './produced-images';
import { registerTool } from './registry';
import { defaultToolSettings, settingsOf, type ToolSettings } from './settings';

export const IMAGE_GEN_HOWTO =
  "An admin sets OPENAI_IMAGE_MODEL for the environment's connection, or a connection names its image model " +
  '(Settings → Models → Edit → Image model).';

/** What image_gen says when it has no endpoint. */
export function imageGenRefusal(lang: 'en' | 'zh' = 'en'): string {
  return lang === 'zh'
    ? 'image_gen 无法生成图片：没有哪个模型连接配置了图片生成接口（/images/generations）。管理员可以为环境连接设置 OPENAI_IMAGE_MODEL，或在“设置 → 模型 → 编辑 → 图片模型”中为连接指定图片模型。'
    : `image_gen cannot make images: no model connection has an images endpoint (/images/generations). ${IMAGE_GEN_HOWTO}`;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

export class ImageGen extends BaseTool {
  name = 'image_gen';
  description = 'Generates an image from a text description and shows it.';
  parameters = {
    type: 'object',
    properties: {
      prompt: {
        type: 'string',
        description:
          'A detailed description of the image wanted. Keep every specific requirement of the request (any text to show in the image, above all) exactly as asked; leave nothing out.',
      },
    },
    required: ['prompt'],
  };

  /** The endpoint this tool makes images with, or undefined when it has none. */
  endpoint(settings: ToolSettings = defaultToolSettings()): ImageEndpoint | undefined {
    const given = this.cfg.endpoint as ImageEndpoint | undefined;
    if (given && typeof given === 'object' && str(given.baseURL) && str(given.model)) return given;
    const model = str(this.cfg.model);
    const baseURL = str(this.cfg.model_server) ?? str(this.cfg.base_url);
    if (model && baseURL) return { baseURL, model, apiKey: str(this.cfg.api_key), connection: baseURL };
    // The app passes an endpoint (or none) explicitly; from code the environment's connection is the default.
    if ('endpoint' in this.cfg) return undefined;
    const llm = settings.imageModel;
    if (!llm.imageModel || !(llm.baseURL || llm.apiKey)) return undefined;
    return {
      baseURL: llm.baseURL ?? 'https://api.openai.com/v1',
      apiKey: llm.apiKey,
      model: llm.imageModel,
      connection: 'Environment',
    };
  }

  async call(params: string, ctx: ToolContext) {
    const { prompt } = this.parseArgs<{ prompt: string }>(params);
    if (!prompt.trim()) throw new Error('The prompt is empty: describe the image to make.');
    const settings = settingsOf(ctx);
    const endpoint = this.endpoint(settings);
    if (!endpoint) return imageGenRefusal(ctx.lang);
    const bytes = await generateImage(endpoint, {
      prompt,
      size: str(this.cfg.size) ?? '1024x1024',
      signal: ctx.signal,
      maxBytes: settings.images.maxBytes,
    });
    const url = await keepProducedImage(bytes, ctx, 'The generated image');
    return [{ text: `Image made by ${endpoint.model} for: ${prompt}` }, { image: url }];
  }
}

registerTool('image_gen')(ImageGen);
