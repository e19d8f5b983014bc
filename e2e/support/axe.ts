// axe-core run in the page: serious and critical violations only, one readable line per failing element.
import type { Page } from '@playwright/test';

const AXE = require.resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) => `[${v.impact}] ${v.id}: ${v.help} at ${JSON.stringify(n.target)}\n    ${n.failureSummary ?? ''}`,
      ),
    );
}

/** Every violation axe-core finds, whatever its impact (minor and moderate too), one readable line per element. */
export async function allViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations.flatMap((v) =>
    v.nodes.map((n) => `[${v.impact ?? '?'}] ${v.id}: ${v.help} at ${JSON.stringify(n.target)}`),
  );
}
