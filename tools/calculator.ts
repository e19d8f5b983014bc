// `calculator`: arithmetic without eval/Function — a tokenizer and a recursive-descent parser.
import { BaseTool } from './base-tool';
import { registerTool } from './registry';

type Token =
  | { kind: 'num'; value: number; pos: number }
  | { kind: 'id'; value: string; raw: string; pos: number }
  | { kind: 'op'; value: string; pos: number };

const MAX_LENGTH = 2000;
const MAX_DEPTH = 100;
const OPERATORS = ['**', '+', '-', '*', '/', '%', '^', '(', ')', ','];

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const num = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i));
    if (num) {
      tokens.push({ kind: 'num', value: Number(num[0]), pos: i });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_]\w*/.exec(src.slice(i));
    if (id) {
      tokens.push({ kind: 'id', value: id[0].toLowerCase(), raw: id[0], pos: i });
      i += id[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw new Error(`Unexpected character '${ch}' at position ${i}`);
    tokens.push({ kind: 'op', value: op, pos: i });
    i += op.length;
  }
  return tokens;
}

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

// Own properties only: a name like 'constructor' must not find Object.prototype members.
function lookup<T>(table: Record<string, T>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

function domain(ok: boolean, message: string): void {
  if (!ok) throw new Error(`Math domain error: ${message}`);
}

function roundHalfAwayFromZero(x: number, digits = 0): number {
  if (!Number.isInteger(digits)) throw new Error('round() takes a whole number of digits');
  const f = 10 ** digits;
  return (Math.sign(x) * Math.round(Math.abs(x) * f)) / f;
}

// [min args, max args (Infinity = variadic), implementation]
const FUNCTIONS: Record<string, [number, number, (...a: number[]) => number]> = {
  sqrt: [1, 1, (x) => (domain(x >= 0, 'sqrt of a negative number'), Math.sqrt(x))],
  abs: [1, 1, Math.abs],
  round: [1, 2, (x, d) => roundHalfAwayFromZero(x, d)],
  floor: [1, 1, Math.floor],
  ceil: [1, 1, Math.ceil],
  sin: [1, 1, Math.sin],
  cos: [1, 1, Math.cos],
  tan: [1, 1, Math.tan],
  // log(x) is base 10, log(x, b) base b; ln is the natural logarithm.
  log: [
    1,
    2,
    (x, b) => {
      domain(x > 0, 'log of a non-positive number');
      if (b === undefined) return Math.log10(x);
      domain(b > 0 && b !== 1, 'log base must be positive and not 1');
      return Math.log(x) / Math.log(b);
    },
  ],
  ln: [1, 1, (x) => (domain(x > 0, 'ln of a non-positive number'), Math.log(x))],
  exp: [1, 1, Math.exp],
  min: [1, Infinity, Math.min],
  max: [1, Infinity, Math.max],
};

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): number {
    if (this.tokens.length === 0) throw new Error('Empty expression');
    const value = this.additive();
    const extra = this.tokens[this.i];
    if (extra) throw this.unexpected(extra);
    return value;
  }

  private unexpected(t: Token | undefined): Error {
    return t
      ? new Error(`Unexpected token '${t.kind === 'id' ? t.raw : t.value}' at position ${t.pos}`)
      : new Error('Unexpected end of expression');
  }

  private peekOp(...ops: string[]): string | undefined {
    const t = this.tokens[this.i];
    return t?.kind === 'op' && ops.includes(t.value) ? t.value : undefined;
  }

  private expect(op: string): void {
    if (!this.peekOp(op)) throw this.unexpected(this.tokens[this.i]);
    this.i++;
  }

  private nested<T>(f: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new Error('Expression is nested too deeply');
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  private additive(): number {
    let left = this.multiplicative();
    for (let op; (op = this.peekOp('+', '-'));) {
      this.i++;
      const right = this.multiplicative();
      left = op === '+' ? left + right : left - right;
    }
    return left;
  }

  private multiplicative(): number {
    let left = this.unary();
    for (let op; (op = this.peekOp('*', '/', '%'));) {
      this.i++;
      const right = this.unary();
      if ((op === '/' || op === '%') && right === 0) throw new Error('Division by zero');
      // % follows the divisor's sign (Python's rule): -7 % 3 is 2.
      left = op === '*' ? left * right : op === '/' ? left / right : ((left % right) + right) % right;
    }
    return left;
  }

  // Unary minus binds looser than power: -2**2 is -(2**2), as in Python and in mathematics.
  private unary(): number {
    const op = this.peekOp('+', '-');
    if (!op) return this.power();
    this.i++;
    const value = this.nested(() => this.unary());
    return op === '-' ? -value : value;
  }

  private power(): number {
    const base = this.primary();
    if (!this.peekOp('**', '^')) return base;
    this.i++;
    const exponent = this.nested(() => this.unary());
    return base ** exponent;
  }

  private primary(): number {
    const t = this.tokens[this.i];
    if (!t) throw this.unexpected(t);
    if (t.kind === 'num') {
      this.i++;
      return t.value;
    }
    if (t.kind === 'op' && t.value === '(') {
      this.i++;
      const value = this.nested(() => this.additive());
      this.expect(')');
      return value;
    }
    if (t.kind === 'id') {
      this.i++;
      if (this.peekOp('(')) return this.call(t);
      const constant = lookup(CONSTANTS, t.value);
      if (constant === undefined) {
        throw new Error(
          lookup(FUNCTIONS, t.value)
            ? `Function '${t.raw}' needs parentheses at position ${t.pos}`
            : `Unknown name '${t.raw}' at position ${t.pos}`,
        );
      }
      return constant;
    }
    throw this.unexpected(t);
  }

  private call(t: Token & { kind: 'id' }): number {
    const fn = lookup(FUNCTIONS, t.value);
    if (!fn) throw new Error(`Unknown function '${t.raw}' at position ${t.pos}`);
    this.expect('(');
    const args: number[] = [];
    if (!this.peekOp(')')) {
      args.push(this.nested(() => this.additive()));
      while (this.peekOp(',')) {
        this.i++;
        args.push(this.nested(() => this.additive()));
      }
    }
    this.expect(')');
    const [min, max, impl] = fn;
    if (args.length < min || args.length > max) {
      const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
      throw new Error(
        `${t.value}() takes ${expected} argument${(max === Infinity ? min : max) === 1 ? '' : 's'}, got ${args.length}`,
      );
    }
    return impl(...args);
  }
}

/** Evaluates an arithmetic expression; throws an Error with a readable message on bad input. */
export function evaluateExpression(expression: string): number {
  if (expression.length > MAX_LENGTH) throw new Error(`Expression is longer than ${MAX_LENGTH} characters`);
  const value = new Parser(tokenize(expression)).parse();
  if (Number.isNaN(value)) throw new Error('The result is not a number');
  if (!Number.isFinite(value)) throw new Error('The result is too large (overflow)');
  return value;
}

/** The number as the model reads it: 15 significant digits, so 0.1+0.2 reads 0.3. */
export function formatNumber(value: number): string {
  const rounded = Number(value.toPrecision(15));
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

export class CalculatorTool extends BaseTool {
  name = 'calculator';
  description =
    'Evaluate an arithmetic expression exactly and return the number. Supports + - * / % and ** or ^ (power), ' +
    'parentheses, sqrt abs round floor ceil sin cos tan log (base 10; log(x, b) for base b) ln exp min max, and the constants pi and e.';
  parameters = {
    type: 'object',
    properties: { expression: { type: 'string', description: 'The expression, e.g. "(3 + 4) * 2 ^ 10 / sqrt(16)"' } },
    required: ['expression'],
  };

  async call(params: string): Promise<string> {
    const { expression } = this.parseArgs<{ expression: string }>(params);
    return formatNumber(evaluateExpression(expression));
  }
}

registerTool('calculator')(CalculatorTool);
