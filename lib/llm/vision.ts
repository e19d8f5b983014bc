// Whether a model is sent images: MODEL_VISION on or off says so for every model; 'auto' goes by what is known of
// the model (its connection's capability, lib/llm/capabilities.ts, which holds the name rule). The model layer itself
// only reads generate_cfg.multimodal, which this decides when the caller has not set it.
import type { VisionSetting } from '../config';

/** generate_cfg.multimodal: an explicit value wins, then MODEL_VISION, then the model's capability. */
export function seesImages(capable: boolean, setting: VisionSetting, multimodal?: unknown): boolean {
  if (typeof multimodal === 'boolean') return multimodal;
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  return capable;
}
