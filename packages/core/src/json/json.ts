/** A value that survives `JSON.stringify` → `JSON.parse` unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object, the shape every tool input and provider bag has. */
export type JsonObject = { [key: string]: JsonValue };
