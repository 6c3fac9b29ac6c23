// Derives the tool-search question sets of fixtures/search/ from four public benchmarks that pair real user
// requests with the tools that serve them (StableToolBench, API-Bank, LiveMCPBench, MCP-Bench). Each source is
// read from a git directory (a clone or a bare mirror) at the commit named in fixtures/search/SOURCES.md, so a
// rerun gives the same files:
//
//   node scripts/extract-search-sets.mjs --stabletoolbench <git dir> --api-bank <git dir> \
//     --livemcpbench <git dir> --mcp-bench <git dir>
//
// Nothing is rewritten except what SOURCES.md lists: ToolBench's own rule turns RapidAPI APIs into functions,
// ground-truth tool names are resolved against the catalogue the benchmark ships, and a question whose
// ground truth is not in that catalogue is left out (and counted).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const COMMITS = {
  stabletoolbench: 'aa4ed9f4737ad98bd706663f01d63623c3427812',
  'api-bank': '483554eae102996f5ec1f4feab4e78ef29c2a394',
  livemcpbench: 'a928e57d1ee7a25579b9a7036030faffff72d15b',
  'mcp-bench': 'd716b6265accf6185639e43b9f91e7aea6bb204a',
};

const args = process.argv.slice(2);
const dirs = {};
for (let index = 0; index < args.length; index += 2) dirs[args[index]?.replace(/^--/, '')] = args[index + 1];
for (const name of Object.keys(COMMITS)) {
  if (dirs[name] === undefined) {
    console.error(
      `usage: node scripts/extract-search-sets.mjs ${Object.keys(COMMITS)
        .map((n) => `--${n} <git dir>`)
        .join(' ')}`,
    );
    process.exit(2);
  }
}

const show = (source, path) =>
  execFileSync('git', ['--git-dir', dirs[source], 'show', `${resolveCommit(source)}:${path}`], {
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
const list = (source, path) =>
  execFileSync('git', ['--git-dir', dirs[source], 'ls-tree', '--name-only', `${resolveCommit(source)}:${path}`], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter((line) => line !== '');
function resolveCommit(source) {
  // The full hash of the pinned commit must exist in the given directory.
  const wanted = COMMITS[source];
  const found = execFileSync('git', ['--git-dir', dirs[source], 'rev-parse', `${wanted.slice(0, 7)}^{commit}`], {
    encoding: 'utf8',
  }).trim();
  if (!found.startsWith(wanted.slice(0, 7))) throw new Error(`${source}: commit ${wanted} not found`);
  return found;
}

const write = (file, value) => writeFileSync(`fixtures/search/${file}`, `${JSON.stringify(value, null, 1)}\n`);
const corpus = (file) => JSON.parse(readFileSync(`fixtures/catalogues/${file}`, 'utf8'));

// ---- StableToolBench: solvable test queries, their relevant APIs, and every API of their api_list ----------
// ToolBench's conversion of a RapidAPI API into a function (toolbench/utils.py standardize / change_name,
// rapidapi.py api_json_to_openai_json), re-implemented: what the agent of that benchmark is shown.
function standardize(text) {
  let out = text
    .replace(/[^\u4e00-\u9fa5a-zA-Z0-9_]/g, '_')
    .replace(/(_)\1+/g, '_')
    .toLowerCase();
  out = out.replace(/^_+/, '').replace(/_+$/, '');
  if (/^[0-9]/.test(out)) out = `get_${out}`;
  return out;
}
const changeName = (name) =>
  ['from', 'class', 'return', 'false', 'true', 'id', 'and'].includes(name) ? `is_${name}` : name;
const TYPES = { NUMBER: 'integer', STRING: 'string', BOOLEAN: 'boolean' };
function rapidApiFunction(api) {
  const tool = standardize(api.tool_name);
  const name = `${changeName(standardize(api.api_name))}_for_${tool}`.slice(-64);
  let description = `This is the subfunction for tool "${tool}", you can use this tool.`;
  if (api.api_description.trim() !== '') {
    const text = api.api_description.trim().replaceAll(api.api_name, name).slice(0, 256);
    description += `The description of this function is: "${text}"`;
  }
  const properties = {};
  const required = [];
  const optional = [];
  for (const [list, names] of [
    [api.required_parameters ?? [], required],
    [api.optional_parameters ?? [], optional],
  ]) {
    for (const parameter of list) {
      const key = changeName(standardize(parameter.name));
      const property = {
        type: TYPES[parameter.type] ?? 'string',
        description: String(parameter.description ?? '').slice(0, 256),
      };
      if (String(parameter.default ?? '') !== '') property.example_value = parameter.default;
      properties[key] = property;
      names.push(key);
    }
  }
  return { name, description, input_schema: { type: 'object', properties, required, optional } };
}

const STB_FILES = [
  ['G1_instruction', 'test'],
  ['G2_instruction', 'test'],
  ['G3_instruction', 'test'],
  ['G1_category', 'tuning'],
  ['G1_tool', 'tuning'],
  ['G2_category', 'tuning'],
];
{
  const tools = new Map();
  const questions = [];
  let dropped = 0;
  for (const [group, split] of STB_FILES) {
    const path = `solvable_queries/test_instruction/${group}.json`;
    for (const entry of JSON.parse(show('stabletoolbench', path))) {
      const names = new Map();
      for (const api of entry.api_list) {
        const fn = rapidApiFunction(api);
        names.set(`${api.tool_name}\u0000${api.api_name}`, fn.name);
        if (!tools.has(fn.name)) {
          tools.set(fn.name, {
            ...fn,
            namespace: api.tool_name,
            category: api.category_name,
            source: `${path}#query_id=${entry.query_id}`,
          });
        }
      }
      const truth = entry['relevant APIs'].map(([tool, api]) => names.get(`${tool}\u0000${api}`));
      if (truth.some((name) => name === undefined)) {
        dropped += 1;
        continue;
      }
      questions.push({
        id: `${group}#${entry.query_id}`,
        split,
        group,
        question: entry.query,
        groundTruth: [...new Set(truth)],
      });
    }
  }
  write('stabletoolbench.json', {
    source: `THUNLP-MT/StableToolBench@${COMMITS.stabletoolbench}:solvable_queries/test_instruction/*.json`,
    dropped,
    tools: [...tools.values()],
    questions,
  });
  console.log(`stabletoolbench: ${tools.size} tools, ${questions.length} questions, ${dropped} dropped`);
}

// ---- API-Bank: the user's words before each API call of the level-1/2 dialogues; ToolSearcher keywords ------
{
  const known = new Set(corpus('api_bank_openai_tools.json').map((tool) => tool.name));
  const questions = [];
  const seen = new Set();
  let dropped = 0;
  // A login step (GetUserToken) is the API's protocol, not something a user asks for: never a ground truth.
  const PROTOCOL = new Set(['GetUserToken', 'ToolSearcher']);
  const add = (question) => {
    const key = `${question.style}\u0000${question.question}\u0000${question.groundTruth.join(',')}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (!question.groundTruth.every((name) => known.has(name))) {
      dropped += 1;
      return;
    }
    questions.push(question);
  };
  for (const [folder, level] of [
    ['level-1-given-desc', 'level-1'],
    ['level-2-toolsearcher', 'level-2'],
  ]) {
    const base = `api-bank/lv1-lv2-samples/${folder}`;
    for (const file of list('api-bank', base)) {
      const events = show('api-bank', `${base}/${file}`)
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line));
      let said = [];
      let keywords;
      for (const event of events) {
        if (event.role === 'User') said.push(event.text);
        if (event.role !== 'API') continue;
        if (event.api_name === 'ToolSearcher') {
          keywords = event.param_dict?.keywords;
          continue;
        }
        if (PROTOCOL.has(event.api_name)) continue;
        const id = `${folder}/${file}#${event.api_name}`;
        if (said.length > 0) {
          add({ id, style: 'dialogue', level, question: said.join(' '), groundTruth: [event.api_name] });
        }
        if (typeof keywords === 'string' && keywords.trim() !== '') {
          add({
            id: `${id}#keywords`,
            style: 'model keywords',
            level,
            question: keywords,
            groundTruth: [event.api_name],
          });
        }
        said = [];
        keywords = undefined;
      }
    }
  }
  write('api-bank.json', {
    source: `AlibabaResearch/DAMO-ConvAI@${COMMITS['api-bank']}:api-bank/lv1-lv2-samples/{level-1-given-desc,level-2-toolsearcher}/*.jsonl`,
    catalogue: 'api_bank_openai_tools.json',
    dropped,
    questions,
  });
  console.log(`api-bank: ${questions.length} questions, ${dropped} dropped`);
}

// ---- LiveMCPBench: annotated tasks, their annotated tools, the annotators' steps and a model's own queries ----
{
  const known = new Set(corpus('mcp_livemcpbench.json').map((tool) => tool.name));
  const numbered = (text) =>
    String(text ?? '')
      .split('\n')
      .map((line) => line.replace(/^\s*\d+[.)]\s*/, '').trim())
      .filter((line) => line !== '');
  const routes = new Map();
  const runs = JSON.parse(show('livemcpbench', 'baseline/output/claude-sonnet-4-20250514_Qwen3-Embedding-0.6B.json'));
  for (const run of runs) {
    const queries = [];
    for (const message of run.messages ?? []) {
      for (const call of message.tool_calls ?? []) {
        if (call.function?.name !== 'route') continue;
        const query = JSON.parse(call.function.arguments).query;
        if (typeof query === 'string') queries.push(query.replace(/<\/?tool_assistant>/g, '').trim());
      }
    }
    routes.set(run.task_id, queries);
  }
  const questions = [];
  let dropped = 0;
  for (const task of JSON.parse(show('livemcpbench', 'annotated_data/all_annotations.json'))) {
    const meta = task['Annotator Metadata'] ?? {};
    const tools = [...new Set(numbered(meta.Tools))];
    const truth = tools.filter((name) => known.has(name));
    if (truth.length === 0) {
      dropped += 1;
      continue;
    }
    questions.push({
      id: task.task_id,
      category: task.category,
      question: task.Question,
      groundTruth: truth,
      unresolved: tools.filter((name) => !known.has(name)),
      steps: numbered(meta.Steps),
      modelQueries: routes.get(task.task_id) ?? [],
    });
  }
  write('livemcpbench.json', {
    source: `icip-cas/LiveMCPBench@${COMMITS.livemcpbench}:annotated_data/all_annotations.json`,
    modelQueriesSource: `icip-cas/LiveMCPBench@${COMMITS.livemcpbench}:baseline/output/claude-sonnet-4-20250514_Qwen3-Embedding-0.6B.json (the "route" calls)`,
    catalogue: 'mcp_livemcpbench.json',
    dropped,
    questions,
  });
  console.log(`livemcpbench: ${questions.length} questions, ${dropped} dropped`);
}

// ---- MCP-Bench: the tasks' fuzzy (user-style) descriptions; ground truth = the servers' tools the task's
// own step list names ----------------------------------------------------------------------------------------
{
  const tools = corpus('mcp_mcpbench.json');
  const byServer = new Map();
  for (const tool of tools) {
    const server = tool.source.split('#')[1];
    byServer.set(server, [...(byServer.get(server) ?? []), tool.name]);
  }
  const questions = [];
  let dropped = 0;
  for (const [file, kind] of [
    ['mcpbench_tasks_single_runner_format.json', 'single server'],
    ['mcpbench_tasks_multi_2server_runner_format.json', 'two servers'],
    ['mcpbench_tasks_multi_3server_runner_format.json', 'three servers'],
  ]) {
    for (const group of JSON.parse(show('mcp-bench', `tasks/${file}`)).server_tasks) {
      const servers = group.servers ?? [group.server_name];
      const names = servers.flatMap((server) => byServer.get(server) ?? []);
      for (const task of group.tasks) {
        const steps = `${task.task_description}\n${task.dependency_analysis ?? ''}`;
        const truth = names.filter((name) =>
          new RegExp(`(^|[^A-Za-z0-9_-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_-])`).test(steps),
        );
        if (truth.length === 0 || typeof task.fuzzy_description !== 'string') {
          dropped += 1;
          continue;
        }
        questions.push({
          id: task.task_id,
          kind,
          servers,
          question: task.fuzzy_description,
          groundTruth: [...new Set(truth)],
        });
      }
    }
  }
  write('mcp-bench.json', {
    source: `xuhaike/mcp-bench@${COMMITS['mcp-bench']}:tasks/*.json`,
    catalogue: 'mcp_mcpbench.json',
    dropped,
    questions,
  });
  console.log(`mcp-bench: ${questions.length} questions, ${dropped} dropped`);
}
