// A conversation's or a saved agent's generation settings (generate_cfg's numbers: temperature, top_p, max_tokens…),
// checked at the door: a value outside what OpenAI-compatible servers take is refused here with the setting's name,
// not sent on to come back as the model server's 400 at the next message, far from where it was typed.
import { z } from './zod';

/** How a known setting's value is bounded: at least `min`, at most `max` (when there is one), a whole number when
 *  `integer`. `step` is what the page's number inputs step by. */
export interface GenerationRange {
  min: number;
  max?: number;
  integer?: boolean;
  step: number;
}

/** The ranges of the settings the OpenAI API documents; others pass as numbers. The one source of them: the schema
 *  below checks them, and the page's inputs take their min, max and step from here (`generationInputBounds`). */
export const GENERATION_RANGES = {
  temperature: { min: 0, max: 2, step: 0.1 },
  top_p: { min: 0, max: 1, step: 0.05 },
  max_tokens: { min: 1, integer: true, step: 1 },
  presence_penalty: { min: -2, max: 2, step: 0.1 },
  frequency_penalty: { min: -2, max: 2, step: 0.1 },
  max_retries: { min: 0, integer: true, step: 1 },
} as const satisfies Record<string, GenerationRange>;

export type RangedSetting = keyof typeof GENERATION_RANGES;

const RANGES: Record<string, GenerationRange | undefined> = GENERATION_RANGES;

/** A value outside its setting's range, with the range: enough to say it in any language. */
export interface GenerationProblem {
  key: RangedSetting;
  value: number;
  min: number;
  max?: number;
  integer: boolean;
}

/** What is wrong with `value` for the setting `key`, if anything (a setting without a range takes any number). */
export function generationProblem(key: string, value: number): GenerationProblem | undefined {
  const range = RANGES[key];
  if (!range) return undefined;
  const bad =
    !Number.isFinite(value) ||
    (range.integer && !Number.isInteger(value)) ||
    value < range.min ||
    (range.max !== undefined && value > range.max);
  if (!bad) return undefined;
  return {
    key: key as RangedSetting,
    value,
    min: range.min,
    ...(range.max !== undefined && { max: range.max }),
    integer: Boolean(range.integer),
  };
}

/** Every setting of `cfg` outside its range, in the order given. */
export function generationProblems(cfg: Readonly<Record<string, number>>): GenerationProblem[] {
  return Object.entries(cfg).flatMap(([key, value]) => generationProblem(key, value) ?? []);
}

/** The min, max and step of a setting's number input. */
export function generationInputBounds(key: RangedSetting): { min: number; max?: number; step: number } {
  const range: GenerationRange = GENERATION_RANGES[key];
  return { min: range.min, ...(range.max !== undefined && { max: range.max }), step: range.step };
}

function outOfRange(key: string, value: number): string | undefined {
  const problem = generationProblem(key, value);
  if (!problem) return undefined;
  if (problem.integer && !Number.isInteger(value)) return `${key} must be a whole number (got ${value}).`;
  return problem.max === undefined
    ? `${key} must be at least ${problem.min} (got ${value}).`
    : `${key} must be between ${problem.min} and ${problem.max} (got ${value}).`;
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
