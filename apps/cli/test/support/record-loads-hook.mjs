// Module hooks (run off the main thread): append each loaded URL to the log file.
import { appendFileSync } from 'node:fs';

let log;

export function initialize(data) {
  log = data.log;
}

export async function load(url, context, nextLoad) {
  if (log !== undefined) appendFileSync(log, `${url}\n`);
  return nextLoad(url, context);
}
