// Qwen-Agent's writing agents: the steps (each one prompt and one model call) and the whole-article plan.
export { OutlineWriting } from './outline-writing';
export { ExpandWriting, type ExpandInput } from './expand-writing';
export { ContinueWriting } from './continue-writing';
export { WriteFromScratch, DEFAULT_PLAN, STEP_HEADINGS, firstLevelHeadings } from './write-from-scratch';
export { WritingStep, type WritingInput, type WritingStepOptions } from './step';
