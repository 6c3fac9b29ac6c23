// What the guides' examples take as given, as an application has it by then: declared here with their real
// types so that a block using them is type-checked like the rest (docs/check-code-blocks.mjs).
declare const model: import('@toolcircuit/core').Model;
declare const catalogue: import('@toolcircuit/core').Catalogue;
declare const session: import('@toolcircuit/core').Session;
declare const messages: import('@toolcircuit/core').Message[];
declare const journal: import('@toolcircuit/core').Journal;
/** Your authentication's user, and the id of their signed-in session. */
declare const user: { readonly id: string; readonly rights: readonly string[] };
declare const sessionId: string;
/** A second model, e.g. a cheaper one for some steps. */
declare const cheaper: import('@toolcircuit/core').Model;
/** Your database, where a paused or interrupted run is kept. */
declare const db: { save(id: string, text: string): Promise<void>; load(id: string): Promise<string> };
/** Your SQL database's client. */
declare const database: { run(query: string): Promise<string> };
