/**
 * A grammar a text tool's input follows, in the syntax OpenAI's custom tools take: `lark` (a Lark grammar)
 * or `regex` (a regular expression the whole text matches).
 */
export interface TextGrammar {
  readonly syntax: 'lark' | 'regex';
  readonly definition: string;
}

/**
 * What a text tool takes: text, free-form or constrained by a grammar. The provider is sent the grammar
 * where it can enforce one (OpenAI custom tools); the executor's input check is the grammar where it can
 * check it here (a `regex` that JavaScript compiles, matched against the whole text) and the tool's own
 * `validate`, which is the only check of a `lark` grammar.
 */
export interface TextInput {
  readonly grammar?: TextGrammar;
  /** The tool's own input check: nothing to accept the text, or the sentence the model is told. */
  readonly validate?: (text: string) => string | undefined | Promise<string | undefined>;
}
