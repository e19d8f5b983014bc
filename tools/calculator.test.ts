import { describe, it, expect } from 'vitest';
import { CalculatorTool, evaluateExpression, formatNumber } from './calculator';
import { TOOL_REGISTRY } from './registry';
import { runTool } from './run-tool';

const calc = (expression: string) => formatNumber(evaluateExpression(expression));

describe('calculator: arithmetic', () => {
  it.each([
    ['1 + 2 * 3', '7'],
    ['(1 + 2) * 3', '9'],
    ['10 / 4', '2.5'],
    ['7 % 3', '1'],
    ['-7 % 3', '2'],
    ['2 ** 10', '1024'],
    ['2 ^ 10', '1024'],
    ['2 ^ 3 ^ 2', '512'],
    ['-2 ** 2', '-4'],
    ['(-2) ** 2', '4'],
    ['2 ** -1', '0.5'],
    ['--3', '3'],
    ['-(1 + 2)', '-3'],
    ['+5', '5'],
    ['.5 + 1.25', '1.75'],
    ['1.5e3 + 2E-1', '1500.2'],
    ['0.1 + 0.2', '0.3'],
    ['10 - 4 - 3', '3'],
    ['100 / 10 / 5', '2'],
  ])('%s = %s', (expr, expected) => {
    expect(calc(expr)).toBe(expected);
  });

  it('knows its functions and constants', () => {
    expect(calc('sqrt(16) + abs(-3)')).toBe('7');
    expect(calc('round(2.5) + round(-2.5) + round(3.14159, 2)')).toBe('3.14');
    expect(calc('floor(2.7) * ceil(2.1)')).toBe('6');
    expect(calc('sin(0) + cos(0) + tan(0)')).toBe('1');
    expect(calc('log(1000)')).toBe('3');
    expect(calc('log(8, 2)')).toBe('3');
    expect(calc('ln(e)')).toBe('1');
    expect(calc('exp(0)')).toBe('1');
    expect(calc('min(3, 1, 2) + max(3, 1, 2)')).toBe('4');
    expect(calc('cos(pi)')).toBe('-1');
    expect(calc('SQRT(4) + PI - pi')).toBe('2');
  });
});

describe('calculator: errors', () => {
  it.each([
    ['1 / 0', 'Division by zero'],
    ['5 % 0', 'Division by zero'],
    ['(1 + 2))', "Unexpected token ')' at position 7"],
    ['1 +', 'Unexpected end of expression'],
    ['2 3', "Unexpected token '3' at position 2"],
    ['', 'Empty expression'],
    ['1 + $', "Unexpected character '$' at position 4"],
    ['foo + 1', "Unknown name 'foo' at position 0"],
    ['bar(1)', "Unknown function 'bar' at position 0"],
    ['sqrt 4', "Function 'sqrt' needs parentheses at position 0"],
    ['sqrt(-1)', 'Math domain error: sqrt of a negative number'],
    ['log(0)', 'Math domain error: log of a non-positive number'],
    ['sqrt(1, 2)', 'sqrt() takes 1 argument, got 2'],
    ['round(1, 2, 3)', 'round() takes 1 to 2 arguments, got 3'],
    ['hasOwnProperty(1)', "Unknown function 'hasOwnProperty' at position 0"],
    ['max()', 'max() takes at least 1 argument, got 0'],
    ['10 ** 400', 'The result is too large (overflow)'],
    ['(1 + 2', 'Unexpected end of expression'],
  ])('%s -> %s', (expr, message) => {
    expect(() => evaluateExpression(expr)).toThrow(new Error(message));
  });

  it('refuses absurd nesting instead of overflowing the stack', () => {
    expect(() => evaluateExpression('('.repeat(500) + '1' + ')'.repeat(500))).toThrow(
      'Expression is nested too deeply',
    );
  });

  it('never evaluates JavaScript', () => {
    expect(() => evaluateExpression('process.exit(1)')).toThrow("Unexpected character '.' at position 7");
    expect(() => evaluateExpression('constructor')).toThrow("Unknown name 'constructor' at position 0");
  });
});

describe('calculator tool', () => {
  it('is registered and answers through runTool', async () => {
    expect(TOOL_REGISTRY.get('calculator')).toBe(CalculatorTool);
    const ctx = { files: [], lang: 'en' as const, messages: [] };
    expect(await runTool(new CalculatorTool(), '{"expression": "(3 + 4) * 2 ^ 10 / sqrt(16)"}', ctx)).toEqual({
      ok: true,
      content: '1792',
    });
    const err = await runTool(new CalculatorTool(), '{"expression": "1/0"}', ctx);
    expect(err.ok).toBe(false);
    expect(err.content).toMatch(
      /^An error occurred when calling tool `calculator`:\nError: Division by zero \(error id [0-9a-f]{8}\)$/,
    );
    const missing = await runTool(new CalculatorTool(), '{}', ctx);
    expect(missing.content).toContain("missing required property 'expression'");
  });
});
