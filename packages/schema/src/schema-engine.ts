/**
 * The functions that translate, normalize and restore schemas: most of this package's code, and needed only
 * once a catalogue is prepared for a provider or a call restored. The published bundle loads this module on
 * the first call of one of them rather than on import (`--lazy` in the build script; see
 * scripts/bundle-package.mjs), so importing an adapter does not parse it. Only functions are exported here:
 * the bundle's stand-ins forward each call to the loaded module.
 */
export { normalizeSchema } from './normalize/normalize-schema.js';
export { normalizeToolSchema } from './normalize/normalize-tool-schema.js';
export { translateOutputSchema } from './output/translate-output-schema.js';
export { restoreProviderInput, restoreStrictInput } from './restore/restore-provider-input.js';
export { translateSchema } from './translate/translate-schema.js';
