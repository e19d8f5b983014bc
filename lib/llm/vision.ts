// Whether a model is sent images. A minimal switch until model connections carry their capabilities (the models
// page's lib/llm/capabilities.ts, where the same name rule lives; on merge this file gives way to it): MODEL_VISION
// on or off says so for the configured model; 'auto' goes by the model's name. The model layer itself only reads
// generate_cfg.multimodal, which this decides when the caller has not set it.
import type { VisionSetting } from '../config';

/** The name rule: `*-vl-*`, `*vision*`, `gpt-4o*`, `qwen-vl-*` (case-insensitive; a trailing `-vl`, or `-vl`
 *  before an Ollama tag, counts as `-vl-`; an organisation prefix such as `Qwen/` is ignored). */
export function nameSuggestsVision(model: string): boolean {
  const name = (model.split('/').pop() ?? model).toLowerCase();
  return /-vl(-|:|$)/.test(name) || name.includes('vision') || name.startsWith('gpt-4o') || name.startsWith('qwen-vl-');
}

/** generate_cfg.multimodal for `model`: an explicit value wins, then MODEL_VISION, then the name. */
export function seesImages(model: string, setting: VisionSetting, multimodal?: unknown): boolean {
  if (typeof multimodal === 'boolean') return multimodal;
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  return nameSuggestsVision(model);
}
