// A conversation's or a saved agent's generation settings (generate_cfg's numbers: temperature, top_p, max_tokens…),
// checked at the door: a value outside what OpenAI-compatible servers take is refused here with the setting's name,
// not sent on to come back as the model server's 400 at the next message, far from where it was typed.
import { z } from './zod';

/** The ranges of the settings the OpenAI API documents (and the page's inputs offer); others pass as numbers. */
const RANGES: Record<string, { min: number; max?: number; integer?: boolean }> = {
  temperature: { min: 0, max: 2 },
  top_p: { min: 0, max: 1 },
  max_tokens: { min: 1, integer: true },
  presence_penalty: { min: -2, max: 2 },
  frequency_penalty: { min: -2, max: 2 },
  max_retries: { min: 0, integer: true },
};

function outOfRange(key: string, value: number): string | undefined {
  const range = RANGES[key];
  if (!range) return undefined;
  if (range.integer && !Number.isInteger(value)) return `${key} must be a whole number (got ${value}).`;
  if (value < range.min || (range.max !== undefined && value > range.max))
    return range.max === undefined
      ? `${key} must be at least ${range.min} (got ${value}).`
      : `${key} must be between ${range.min} and ${range.max} (got ${value}).`;
  return undefined;
}

/** Setting names to finite numbers, each known one within its range. */
export const GenerationSettingsSchema = z
  .record(
    z.string(),
    z.number({ error: 'each generation setting must be a number' }).refine(Number.isFinite, 'must be a finite number'),
    { error: '"generateCfg" must map setting names to numbers' },
  )
  .superRefine((cfg, ctx) => {
    for (const [key, value] of Object.entries(cfg)) {
      const message = outOfRange(key, value);
      if (message) ctx.addIssue({ code: 'custom', path: [key], message });
    }
  });
