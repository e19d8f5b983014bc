import { describe, expect, it } from 'vitest';
import { TOOL_REGISTRY } from './registry';
import { checkTool, createTool } from './index';

describe('builtin tools', () => {
  it('register themselves on import, each with a valid declaration', () => {
    for (const name of ['calculator', 'current_time', 'storage']) {
      expect(TOOL_REGISTRY.has(name)).toBe(true);
      const tool = createTool(name);
      expect(tool.name).toBe(name);
      expect(() => checkTool(tool)).not.toThrow();
      expect(tool.function.name).toBe(name);
      expect(tool.function.description.length).toBeGreaterThan(10);
    }
  });
});
