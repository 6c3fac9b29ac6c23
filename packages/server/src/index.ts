export { createRunServer, type RunServer } from './create-run-server.js';
export { InvalidServerOptionError } from './errors/invalid-server-option-error.js';
export { MissingServerOptionError } from './errors/missing-server-option-error.js';
export type { RunServerErrorBody, RunServerErrorCode } from './http/http-problem.js';
export { type FetchHandler, toNodeListener } from './node/to-node-listener.js';
export type { Authenticate, RunServerOptions } from './run-server-options.js';
export type { ApprovalView, SourceView } from './runs/approval-view.js';
export type { DecisionInput } from './runs/parse-decisions.js';
export type { RunView } from './runs/run-view.js';
