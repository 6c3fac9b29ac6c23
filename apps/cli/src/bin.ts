#!/usr/bin/env node
import { setMaxListeners } from 'node:events';
import { runCli } from './run-cli.js';

// The one place that touches `process`: commands get everything through CliIo, so tests can run them in-process.
const controller = new AbortController();
// Every model request of a run listens on this one signal (the SDKs add a listener per request); a long
// run is not a leak, so Node's warning at 10 would only be noise.
setMaxListeners(10_000, controller.signal);
let interrupted = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted += 1;
    // A second Ctrl-C means "now": do not wait for a command that is stuck in its clean-up.
    if (interrupted > 1) process.exit(130);
    controller.abort(new Error(`received ${signal}`));
  });
}

// `toolcircuit lint … | head`: a reader that went away is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
});
process.exitCode = code;
