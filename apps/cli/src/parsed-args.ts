import { UsageError } from './errors/usage-error.js';

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/**
 * The flags and positionals of one invocation, read through typed accessors: `util.parseArgs` types its
 * result from a literal options object, which a registry of commands cannot give it.
 */
export class ParsedArgs {
  readonly #values: Values;
  readonly positionals: readonly string[];

  constructor(values: Values, positionals: readonly string[]) {
    this.#values = values;
    this.positionals = positionals;
  }

  string(name: string): string | undefined {
    const value = this.#values[name];
    return typeof value === 'string' ? value : undefined;
  }

  flag(name: string): boolean {
    return this.#values[name] === true;
  }

  list(name: string): string[] {
    const value = this.#values[name];
    if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
    return typeof value === 'string' ? [value] : [];
  }

  /** A whole number flag; `undefined` when absent, a usage error when not a number in range. */
  integer(name: string, range: { readonly min: number; readonly max?: number }): number | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isInteger(value) || value < range.min || (range.max !== undefined && value > range.max)) {
      const bound = range.max === undefined ? `${range.min} or more` : `from ${range.min} to ${range.max}`;
      throw new UsageError(`--${name} must be a whole number ${bound}, got "${text}".`);
    }
    return value;
  }

  /** A flag whose value must be one of `choices`. */
  choice<const T extends string>(name: string, choices: readonly T[], fallback: T): T;
  choice<const T extends string>(name: string, choices: readonly T[]): T | undefined;
  choice<const T extends string>(name: string, choices: readonly T[], fallback?: T): T | undefined {
    const value = this.string(name);
    if (value === undefined) return fallback;
    if ((choices as readonly string[]).includes(value)) return value as T;
    throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got "${value}".`);
  }
}
