import type { Cassette, CassetteProtocol } from './cassette.js';
import { CassetteFormatError } from './cassette-format-error.js';

const PROTOCOLS: readonly CassetteProtocol[] = ['anthropic-messages', 'openai-chat', 'openai-responses', 'gemini'];
const PROVENANCE_FIELDS = {
  recorded: ['recordedAt'],
  imported: ['sourceFile', 'repo', 'path', 'commit', 'license', 'sha256'],
  synthetic: ['note'],
} as const;

/**
 * Checks that a parsed JSON value is a `toolcircuit-cassette/1` and returns it typed. Every problem is
 * collected (not only the first) so one run shows everything wrong with a hand-edited file.
 * @throws CassetteFormatError naming `source` and each bad field.
 */
export function validateCassette(value: unknown, source: string): Cassette {
  const problems: string[] = [];
  const problem = (path: string, message: string) => problems.push(`${path} ${message}`);

  if (!isObject(value)) throw new CassetteFormatError(source, [`(root) must be an object, got ${describe(value)}`]);
  if (value['format'] !== 'toolcircuit-cassette/1') {
    problem('format', `must be "toolcircuit-cassette/1", got ${describe(value['format'])}`);
  }
  if (!PROTOCOLS.includes(value['protocol'] as CassetteProtocol)) {
    problem('protocol', `must be one of ${PROTOCOLS.join(', ')}, got ${describe(value['protocol'])}`);
  }
  if (value['model'] !== undefined && typeof value['model'] !== 'string') {
    problem('model', `must be a string when present, got ${describe(value['model'])}`);
  }
  checkProvenance(value['provenance'], problem);
  const interactions = value['interactions'];
  if (!Array.isArray(interactions)) {
    problem('interactions', `must be an array, got ${describe(interactions)}`);
  } else {
    if (interactions.length === 0) problem('interactions', 'must hold at least one interaction');
    for (const [index, interaction] of interactions.entries()) {
      checkInteraction(interaction, `interactions[${index}]`, problem);
    }
  }
  if (problems.length > 0) throw new CassetteFormatError(source, problems);
  return value as unknown as Cassette;
}

type Problem = (path: string, message: string) => void;

function checkProvenance(value: unknown, problem: Problem): void {
  if (!isObject(value)) {
    problem('provenance', `must be an object, got ${describe(value)}`);
    return;
  }
  const kind = value['kind'];
  if (kind !== 'recorded' && kind !== 'imported' && kind !== 'synthetic') {
    problem('provenance.kind', `must be "recorded", "imported" or "synthetic", got ${describe(kind)}`);
    return;
  }
  for (const field of PROVENANCE_FIELDS[kind]) {
    if (typeof value[field] !== 'string' || value[field] === '') {
      problem(`provenance.${field}`, `must be a non-empty string for kind "${kind}", got ${describe(value[field])}`);
    }
  }
  if (kind === 'imported' && typeof value['sha256'] === 'string' && !/^[0-9a-f]{64}$/.test(value['sha256'])) {
    problem('provenance.sha256', 'must be 64 lower-case hex digits');
  }
}

function checkInteraction(value: unknown, path: string, problem: Problem): void {
  if (!isObject(value)) {
    problem(path, `must be an object, got ${describe(value)}`);
    return;
  }
  const request = value['request'];
  if (!isObject(request)) {
    problem(`${path}.request`, `must be an object, got ${describe(request)}`);
  } else {
    if (typeof request['method'] !== 'string' || !/^[A-Z]+$/.test(request['method'])) {
      problem(`${path}.request.method`, `must be an upper-case HTTP method, got ${describe(request['method'])}`);
    }
    if (typeof request['path'] !== 'string' || !request['path'].startsWith('/') || request['path'].includes('?')) {
      problem(`${path}.request.path`, `must start with "/" and hold no query, got ${describe(request['path'])}`);
    }
    checkStringMap(request['query'], `${path}.request.query`, problem, true);
    checkStringMap(request['headers'], `${path}.request.headers`, problem, true);
  }
  const response = value['response'];
  if (!isObject(response)) {
    problem(`${path}.response`, `must be an object, got ${describe(response)}`);
    return;
  }
  const status = response['status'];
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    problem(`${path}.response.status`, `must be an integer 100..599, got ${describe(status)}`);
  }
  checkStringMap(response['headers'], `${path}.response.headers`, problem, false);
  checkBody(response['body'], `${path}.response.body`, problem);
}

function checkBody(value: unknown, path: string, problem: Problem): void {
  if (!isObject(value)) {
    problem(path, `must be an object, got ${describe(value)}`);
    return;
  }
  const kind = value['kind'];
  if (kind === 'json') {
    if (!('json' in value)) problem(`${path}.json`, 'is missing');
  } else if (kind === 'text') {
    if (typeof value['text'] !== 'string') problem(`${path}.text`, `must be a string, got ${describe(value['text'])}`);
  } else if (kind === 'sse') {
    const events = value['events'];
    if (!Array.isArray(events)) {
      problem(`${path}.events`, `must be an array, got ${describe(events)}`);
      return;
    }
    events.forEach((event, index) => {
      const at = `${path}.events[${index}]`;
      if (!isObject(event)) problem(at, `must be an object, got ${describe(event)}`);
      else {
        if (typeof event['data'] !== 'string')
          problem(`${at}.data`, `must be a string, got ${describe(event['data'])}`);
        if (event['event'] !== undefined && typeof event['event'] !== 'string') {
          problem(`${at}.event`, `must be a string when present, got ${describe(event['event'])}`);
        }
      }
    });
  } else {
    problem(`${path}.kind`, `must be "json", "sse" or "text", got ${describe(kind)}`);
  }
}

function checkStringMap(value: unknown, path: string, problem: Problem, optional: boolean): void {
  if (value === undefined && optional) return;
  if (!isObject(value)) {
    problem(path, `must be an object of strings, got ${describe(value)}`);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') problem(`${path}.${key}`, `must be a string, got ${describe(item)}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
