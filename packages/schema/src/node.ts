// Node-only entry (`@toolcircuit/schema/node`): reads catalogue files from disk.
export { loadCatalogueFile } from './catalogue/load-catalogue-file.js';
