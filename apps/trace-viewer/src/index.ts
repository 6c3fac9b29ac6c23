export {
  type ServeTraceViewerOptions,
  serveTraceViewer,
  TRACE_FILE_EXTENSIONS,
  type TraceViewerServer,
} from './serve-trace-viewer.js';
export { traceViewerDirectory } from './trace-viewer-directory.js';
