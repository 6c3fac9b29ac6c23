/** How serious a finding is; the names are SARIF's `level` values. */
export type LintLevel = 'error' | 'warning' | 'note';

export const LINT_LEVELS: readonly LintLevel[] = ['error', 'warning', 'note'];

export interface LintRule {
  readonly id: string;
  readonly level: LintLevel;
  /** One line: what the rule finds. */
  readonly summary: string;
  /** Why it matters and what to do. */
  readonly help: string;
}

/** Every rule `toolcircuit lint` applies, in the order reports list them. */
export const LINT_RULES = [
  {
    id: 'duplicate-name',
    level: 'error',
    summary: 'Two tools share a name.',
    help: 'Providers reject duplicate tool names and the loop could not tell the calls apart. Rename one.',
  },
  {
    id: 'missing-description',
    level: 'error',
    summary: 'A tool has no description.',
    help: 'The model chooses tools by their description. Say what the tool does, with what, and when not to use it.',
  },
  {
    id: 'core-refuses',
    level: 'error',
    summary: 'createCatalogue refuses the tool (its message is shown).',
    help: 'The same check createCatalogue runs: the schema does not compile (a bound that is not a number, an invalid regex, an empty enum or allOf, a $ref that resolves nowhere, an unsupported draft) or the definition is unusable. Registering the list fails on this tool; createCatalogue(tools, { mode: "lenient" }) loads the others.',
  },
  {
    id: 'impossible-required',
    level: 'error',
    summary: 'An object requires a property that additionalProperties: false forbids: no input is valid.',
    help: 'The name is in "required" but neither in "properties" nor matched by "patternProperties", and the object is closed, so every call fails the schema check. Declare the property (with its schema and a description) or remove it from "required".',
  },
  {
    id: 'provider-rejects',
    level: 'error',
    summary: "A provider cannot accept the tool's input schema.",
    help: 'The translator found no faithful way to send this schema to that provider; the adapter would refuse the catalogue. Simplify the schema at the path shown.',
  },
  {
    id: 'overlapping-descriptions',
    level: 'warning',
    summary: 'Two descriptions overlap enough to confuse the model.',
    help: 'Scored by TF-IDF cosine on stemmed content words (threshold --overlap-threshold, default 0.7, and at least 2 shared terms). Make each description say what sets the tool apart, or merge the tools.',
  },
  {
    id: 'provider-narrows',
    level: 'warning',
    summary: 'A provider cannot carry some inputs the schema accepts (the finding says which).',
    help: "The provider's rules force a narrower shape (a type inferred from keywords) or two union branches restore alike, and no looser dialect of that provider keeps every input either (where one does, the tool is sent in it: see provider-fallback). Declare the shape explicitly, or use a target that keeps it.",
  },
  {
    id: 'provider-fallback',
    level: 'warning',
    summary:
      "A tool sent in a provider's looser dialect because its own would lose inputs the schema declares (one per tool: why, and what it costs).",
    help: 'OpenAI strict mode is per function: a tool strict mode would narrow (an object that declares open keys with additionalProperties: true, a schema or patternProperties; an optional that accepts null without a default, whose null it cannot tell from an omitted key; a union it cannot restore) is sent with strict: false and its faithful schema, so that tool loses the guarantee that arguments match its schema (the executor still validates them; a warning). Objects that only omit additionalProperties do not count: strict closes them. Gemini takes parameters or parametersJsonSchema per function: such a tool is declared with parametersJsonSchema (a note). To keep a tool strict, declare the open keys as properties (or drop them), give an optional nullable field a default or make it non-nullable, and give union branches a const discriminator.',
  },
  {
    id: 'open-object',
    level: 'warning',
    summary:
      'Object schemas with properties do not set additionalProperties: false (said once per file, with its cost).',
    help: 'Without it the model may add fields the tool never reads; OpenAI strict mode closes the object (keys it does not declare cannot be sent), and one that declares open keys (additionalProperties: true or a schema) sends its tool with strict: false. Add "additionalProperties": false (objects without properties, free-form maps, are not flagged).',
  },
  {
    id: 'undocumented-property',
    level: 'warning',
    summary: 'A property has no description.',
    help: 'The model fills arguments from property descriptions: say what the value is, its format and an example.',
  },
  {
    id: 'provider-renames',
    level: 'warning',
    summary: "A provider rejects the tool's name; the adapter sends another one.",
    help: 'The adapter maps the name back, but the model sees the rewritten name and journals show both. Use [A-Za-z0-9_-], at most 64 characters, starting with a letter.',
  },
  {
    id: 'provider-drops',
    level: 'warning',
    summary: 'A provider cannot see some constraints of the schema at all.',
    help: 'The translator dropped them, sent the value as JSON text, or cut a recursive schema; the executor still enforces them, so the model learns them only from refusals. Express them in a way the provider keeps. (Dialect markers, $defs, and additionalProperties dropped for Gemini are reported as rewrites: nothing the model needs is lost.)',
  },
  {
    id: 'no-out-of-scope',
    level: 'note',
    summary: 'The description names no out-of-scope use.',
    help: 'A phrase like "Do not use for …", "Not for …" or "Only …" tells the model when to pick another tool.',
  },
  {
    id: 'provider-rewrites',
    level: 'note',
    summary:
      'A provider receives the schema rewritten: same meaning, a looser form, or constraints moved into the description.',
    help: 'For information: see `toolcircuit convert --provider <name>` for the exact schema the provider receives.',
  },
] as const satisfies readonly LintRule[];

export type LintRuleId = (typeof LINT_RULES)[number]['id'];

export function ruleById(id: LintRuleId): LintRule {
  return LINT_RULES.find((rule) => rule.id === id) as LintRule;
}

/** `error` ≥ `warning` ≥ `note`: is `level` at or above `threshold`? */
export function isAtLeast(level: LintLevel, threshold: LintLevel): boolean {
  return LINT_LEVELS.indexOf(level) <= LINT_LEVELS.indexOf(threshold);
}
