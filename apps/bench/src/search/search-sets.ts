import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonObject } from '@toolcircuit/core';

// The repository's copies (fixtures/, with their provenance in fixtures/search/SOURCES.md).
const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));

/** A tool of a set's catalogue, as its source wrote it, with the server or vendor it belongs to. */
export interface SetTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly namespace: string | undefined;
}

/**
 * One request with the tools that serve it. `queries` are what is searched: one query (the request as
 * written), or several (one search per step), in which case a tool counts as found when any query finds it.
 */
export interface SetQuestion {
  readonly id: string;
  readonly queries: readonly string[];
  readonly groundTruth: readonly string[];
  /** The namespaces of the ground-truth tools (the scope a model would filter by). */
  readonly namespaces: readonly string[];
}

/** A style of request of one source: e.g. StableToolBench's single-tool requests, LiveMCPBench's model queries. */
export interface SearchSet {
  /** `source · style`. */
  readonly label: string;
  readonly source: string;
  readonly style: string;
  /** Tuning sets choose the weights and rules; test sets are only ever measured. Fixed in fixtures/search/SOURCES.md. */
  readonly split: 'tuning' | 'test';
  /** The catalogue the source ships (the set's own tools, ground truth and its neighbours). */
  readonly tools: readonly SetTool[];
  readonly questions: readonly SetQuestion[];
}

interface CorpusTool {
  readonly name: string;
  readonly description?: string;
  readonly input_schema?: JsonObject;
  readonly source: string;
  readonly namespace?: string;
}

const read = <T>(path: string): T => JSON.parse(readFileSync(`${FIXTURES}${path}`, 'utf8')) as T;

/**
 * The namespace of a corpus tool from its `source` (`owner/repo@commit:path#pointer`): the MCP server for
 * MCP catalogues, the API class for BFCL's multi-turn tools, else the repository.
 */
export function namespaceOf(tool: CorpusTool): string | undefined {
  if (tool.namespace !== undefined) return tool.namespace;
  const [location = '', pointer] = tool.source.split('#');
  const repository = location.split('@')[0] ?? '';
  if (location.includes('LiveMCPBench') && pointer !== undefined) return pointer.split('/')[1] ?? pointer;
  if (location.includes('mcp-bench') && pointer !== undefined) return pointer;
  const server = /:src\/([a-z0-9-]+)/.exec(location)?.[1];
  if (server !== undefined) return server;
  const multiTurn = /multi_turn_func_doc\/([a-z_]+)\.json/.exec(location)?.[1];
  if (multiTurn !== undefined) return multiTurn;
  if (repository === 'github/github-mcp-server') return 'github';
  if (repository === 'makenotion/notion-mcp-server') return 'notion';
  return undefined;
}

export function toSetTool(tool: CorpusTool): SetTool {
  return {
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.input_schema ?? { type: 'object' },
    namespace: namespaceOf(tool),
  };
}

/** Every file of fixtures/catalogues, in a fixed order, for distractors. */
export const CORPUS_FILES = [
  'mcp_github_mcp_server.json',
  'mcp_notion.json',
  'mcp_reference_servers.json',
  'mcp_reference_servers_archived.json',
  'mcp_livemcpbench.json',
  'mcp_mcpbench.json',
  'api_bank_openai_tools.json',
  'toolbench_openai_functions.json',
  'stabletoolbench_rapidapi_converted.json',
  'gorilla_openfunctions_v1.json',
  'bfcl.json',
] as const;

export function corpusTools(file: string): SetTool[] {
  return read<CorpusTool[]>(`catalogues/${file}`).map(toSetTool);
}

const single = (question: string) => [question];

/** Splits a request into its clauses: what a model searching one step at a time would look for. */
export function clausesOf(text: string): string[] {
  const clauses = text
    .split(/(?<=[.!?;:])\s+|\n+|\s*[•·\-–]\s+(?=[A-Za-z])|,?\s+(?:and then|then|and also|also|after that|plus)\s+/i)
    .map((clause) => clause.trim())
    .filter((clause) => /[A-Za-z]{3}/.test(clause));
  return clauses.length === 0 ? [text] : clauses;
}

/** Every set, tuning and test, in report order. */
export function searchSets(): SearchSet[] {
  return [...stableToolBenchSets(), ...apiBankSets(), ...liveMcpBenchSets(), ...mcpBenchSets(), ...bfclSets()];
}

function stableToolBenchSets(): SearchSet[] {
  const data = read<{
    tools: CorpusTool[];
    questions: { id: string; group: string; split: 'tuning' | 'test'; question: string; groundTruth: string[] }[];
  }>('search/stabletoolbench.json');
  const tools = data.tools.map(toSetTool);
  const namespace = firstNamespaces(tools);
  const STYLES: Record<string, string> = {
    G1_instruction: 'one tool (G1 instruction)',
    G2_instruction: 'tools of one category (G2 instruction)',
    G3_instruction: 'tools of one collection (G3 instruction)',
    G1_category: 'G1 category',
    G1_tool: 'G1 tool',
    G2_category: 'G2 category',
  };
  return Object.entries(STYLES).flatMap(([group, style]) => {
    const questions = data.questions.filter((question) => question.group === group);
    const split = questions[0]?.split ?? 'test';
    const raw: SetQuestion[] = questions.map((question) => ({
      id: question.id,
      queries: single(question.question),
      groundTruth: question.groundTruth,
      namespaces: namespacesOf(question.groundTruth, namespace),
    }));
    return [
      { label: `StableToolBench · ${style}`, source: 'StableToolBench', style, split, tools, questions: raw },
      {
        label: `StableToolBench · ${style}, one query per clause`,
        source: 'StableToolBench',
        style: `${style}, one query per clause`,
        split,
        tools,
        questions: raw.map((question) => ({ ...question, queries: clausesOf(question.queries[0] ?? '') })),
      },
    ];
  });
}

function apiBankSets(): SearchSet[] {
  const data = read<{
    catalogue: string;
    questions: { id: string; style: string; level: string; question: string; groundTruth: string[] }[];
  }>('search/api-bank.json');
  const tools = corpusTools(data.catalogue).map((tool) => ({ ...tool, namespace: 'api-bank' }));
  const set = (style: string, filter: (question: (typeof data.questions)[number]) => boolean): SearchSet => ({
    label: `API-Bank · ${style}`,
    source: 'API-Bank',
    style,
    split: 'test',
    tools,
    questions: data.questions.filter(filter).map((question) => ({
      id: question.id,
      queries: single(question.question),
      groundTruth: question.groundTruth,
      namespaces: ['api-bank'],
    })),
  });
  return [
    set("the user's words before each call", (question) => question.style === 'dialogue'),
    set('keywords a model wrote (ToolSearcher calls)', (question) => question.style === 'model keywords'),
  ];
}

function liveMcpBenchSets(): SearchSet[] {
  const data = read<{
    catalogue: string;
    questions: { id: string; question: string; groundTruth: string[]; steps: string[]; modelQueries: string[] }[];
  }>('search/livemcpbench.json');
  const tools = corpusTools(data.catalogue);
  const namespace = firstNamespaces(tools);
  const set = (style: string, queries: (question: (typeof data.questions)[number]) => string[]): SearchSet => ({
    label: `LiveMCPBench · ${style}`,
    source: 'LiveMCPBench',
    style,
    split: 'test',
    tools,
    questions: data.questions
      .map((question) => ({
        id: question.id,
        queries: queries(question),
        groundTruth: question.groundTruth,
        namespaces: namespacesOf(question.groundTruth, namespace),
      }))
      .filter((question) => question.queries.length > 0),
  });
  return [
    set('task as the user wrote it', (question) => [question.question]),
    set('task, one query per clause', (question) => clausesOf(question.question)),
    set("annotators' steps, one query each", (question) => question.steps),
    set("a model's own search queries (claude-sonnet-4)", (question) => question.modelQueries),
  ];
}

function mcpBenchSets(): SearchSet[] {
  const data = read<{
    catalogue: string;
    questions: { id: string; kind: string; question: string; groundTruth: string[] }[];
  }>('search/mcp-bench.json');
  const tools = corpusTools(data.catalogue);
  const namespace = firstNamespaces(tools);
  const questions = data.questions.map((question) => ({
    id: question.id,
    queries: single(question.question),
    groundTruth: question.groundTruth,
    namespaces: namespacesOf(question.groundTruth, namespace),
  }));
  return [
    {
      label: 'MCP-Bench · indirect task (fuzzy description)',
      source: 'MCP-Bench',
      style: 'indirect task (fuzzy description)',
      split: 'test',
      tools,
      questions,
    },
    {
      label: 'MCP-Bench · indirect task, one query per clause',
      source: 'MCP-Bench',
      style: 'indirect task, one query per clause',
      split: 'test',
      tools,
      questions: questions.map((question) => ({ ...question, queries: clausesOf(question.queries[0] ?? '') })),
    },
  ];
}

function bfclSets(): SearchSet[] {
  const data = read<{
    questions: { id: string; category: string; question: string; groundTruth: { name: string }[] }[];
  }>('bfcl/questions.json');
  const tools = corpusTools('bfcl.json');
  const namespace = firstNamespaces(tools);
  const set = (style: string, multi: boolean): SearchSet => ({
    label: `BFCL · ${style}`,
    source: 'BFCL',
    style,
    split: 'tuning',
    tools,
    questions: data.questions
      .filter((question) => question.category.startsWith('multi_turn') === multi)
      .map((question) => {
        const truth = [...new Set(question.groundTruth.map((call) => call.name))];
        return {
          id: question.id,
          queries: single(question.question),
          groundTruth: truth,
          namespaces: namespacesOf(truth, namespace),
        };
      }),
  });
  return [set('single-turn', false), set('multi-turn turns', true)];
}

/** Each name's namespace, from its first tool (a catalogue keeps the first tool of a name). */
function firstNamespaces(tools: readonly SetTool[]): Map<string, string | undefined> {
  const map = new Map<string, string | undefined>();
  for (const tool of tools) if (!map.has(tool.name)) map.set(tool.name, tool.namespace);
  return map;
}

function namespacesOf(names: readonly string[], namespace: ReadonlyMap<string, string | undefined>): string[] {
  return [...new Set(names.map((name) => namespace.get(name)).filter((name): name is string => name !== undefined))];
}
