// The layer rules (.dependency-cruiser.cjs, run by `npm test`) hold for the code, and they do catch what they
// forbid: a small tree with a planted file cycle, folder cycle and forbidden imports fails them, each by name.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const depcruise = path.join(root, 'node_modules/.bin/depcruise');
const config = path.join(root, '.dependency-cruiser.cjs');

async function cruise(cwd: string, dirs: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(depcruise, [...dirs, '--config', config, '--output-type', 'err'], {
      cwd,
    });
    return { code: 0, output: stdout };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? 1, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

const planted = mkdtempSync(path.join(tmpdir(), 'layers-'));
afterAll(() => rmSync(planted, { recursive: true, force: true }));

function plant(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(planted, file)), { recursive: true });
  writeFileSync(path.join(planted, file), text);
}

describe('the layer rules', () => {
  it('hold for the code, with no violation', async () => {
    const { code, output } = await cruise(root, [
      'app',
      'components',
      'lib',
      'tools',
      'scripts',
      'test',
      'e2e',
      'bench',
    ]);
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  }, 60_000);

  it('fail on a planted cycle, folder cycle and forbidden imports, naming each', async () => {
    symlinkSync(path.join(root, 'node_modules'), path.join(planted, 'node_modules'));
    plant('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler' } }));
    // Two modules that import each other.
    plant('lib/llm/a.ts', "import { b } from './b';\nexport const a = () => b;\n");
    plant('lib/llm/b.ts', "import { a } from './a';\nexport const b = () => a;\n");
    // Two services' folders that import each other, one module each way.
    plant('lib/chat/x.ts', "import { y } from '../store/y';\nexport const x = y;\n");
    plant('lib/store/y.ts', 'export const y = 1;\n');
    plant('lib/store/z.ts', "import { x } from '../chat/x';\nexport const z = x;\n");
    // The model layer on the agent runtime; a tool on the agent runtime; the core on react and on test scripts.
    plant('lib/agent/run.ts', 'export const run = 1;\n');
    plant('lib/llm/model.ts', "import { run } from '../agent/run';\nexport const model = run;\n");
    plant('tools/tool.ts', "import { run } from '../lib/agent/run';\nexport const tool = run;\n");
    plant('lib/documents/view.ts', "import { useState } from 'react';\nexport const view = useState;\n");
    plant('scripts/server.ts', 'export const server = 1;\n');
    plant('lib/inspect/fixture.ts', "import { server } from '../../scripts/server';\nexport const fixture = server;\n");
    // The bottom layer importing anything of ours.
    plant('lib/protocol/events.ts', "import { model } from '../llm/model';\nexport const events = model;\n");

    const { code, output } = await cruise(planted, ['lib', 'tools', 'scripts']);
    expect(code).not.toBe(0);
    const violations = output.split('\n').filter((l) => l.includes('error '));
    const named = (rule: string, file: string) => violations.some((l) => l.includes(`${rule}: ${file}`));
    expect(named('no-circular', 'lib/llm/a.ts')).toBe(true);
    expect(named('no-folder-cycle', 'lib/chat')).toBe(true);
    expect(named('model-layer-stays-below-tools', 'lib/llm/model.ts')).toBe(true);
    expect(named('tools-stay-below-the-agent-runtime', 'tools/tool.ts')).toBe(true);
    expect(named('core-is-framework-free', 'lib/documents/view.ts')).toBe(true);
    expect(named('product-code-not-on-test-infrastructure', 'lib/inspect/fixture.ts')).toBe(true);
    expect(named('protocol-imports-nothing-of-ours', 'lib/protocol/events.ts')).toBe(true);
  }, 60_000);
});
