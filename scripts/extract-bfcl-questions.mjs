// Derives fixtures/bfcl/questions.json from the Berkeley Function Calling Leaderboard's data folder
// (ShishirPatil/gorilla, berkeley-function-call-leaderboard/bfcl_eval/data, Apache-2.0): the questions whose
// ground-truth tools are all in fixtures/catalogues/bfcl.json (same name and description), with their
// ground-truth calls as BFCL gives them. Multi-turn questions give one entry per turn (the turn's user text
// and the names of the calls its ground truth makes). Run it against a checkout of that folder:
//
//   node scripts/extract-bfcl-questions.mjs <path-to>/bfcl_eval/data <commit>
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dataDir, commit] = process.argv.slice(2);
if (dataDir === undefined || commit === undefined) {
  console.error('usage: node scripts/extract-bfcl-questions.mjs <bfcl_eval/data folder> <commit>');
  process.exit(2);
}
const SINGLE_TURN = [
  'simple_python',
  'simple_java',
  'simple_javascript',
  'multiple',
  'parallel',
  'parallel_multiple',
  'live_simple',
  'live_multiple',
  'live_parallel',
  'live_parallel_multiple',
];
const corpus = JSON.parse(readFileSync('fixtures/catalogues/bfcl.json', 'utf8'));
const known = new Set(corpus.map((tool) => `${tool.name}\u0000${tool.description}`));
const lines = (path) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
const userText = (turn) =>
  turn
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n');

const questions = [];
for (const category of SINGLE_TURN) {
  const answers = new Map(lines(join(dataDir, 'possible_answer', `BFCL_v4_${category}.json`)).map((a) => [a.id, a]));
  for (const question of lines(join(dataDir, `BFCL_v4_${category}.json`))) {
    const answer = answers.get(question.id);
    if (answer === undefined) continue;
    const calls = answer.ground_truth.map((call) => {
      const [name, args] = Object.entries(call)[0];
      return { name, arguments: args };
    });
    const inCorpus = calls.every((call) => {
      const doc = question.function.find((fn) => fn.name === call.name);
      return doc !== undefined && known.has(`${doc.name}\u0000${doc.description}`);
    });
    if (!inCorpus) continue;
    questions.push({ id: question.id, category, question: userText(question.question[0]), groundTruth: calls });
  }
}
// Multi-turn: the function docs are per API class; a turn's ground truth is a list of call strings.
const multiAnswers = new Map(
  lines(join(dataDir, 'possible_answer', 'BFCL_v4_multi_turn_base.json')).map((a) => [a.id, a]),
);
const corpusNames = new Set(corpus.map((tool) => tool.name));
for (const question of lines(join(dataDir, 'BFCL_v4_multi_turn_base.json'))) {
  const answer = multiAnswers.get(question.id);
  if (answer === undefined) continue;
  for (const [index, turn] of question.question.entries()) {
    const text = userText(turn);
    const expected = answer.ground_truth[index] ?? [];
    const calls = expected.map((call) => ({ name: call.slice(0, call.indexOf('(')), call }));
    if (text === '' || calls.length === 0 || !calls.every((call) => corpusNames.has(call.name))) continue;
    questions.push({
      id: `${question.id}#turn${index}`,
      category: 'multi_turn_base',
      question: text,
      groundTruth: calls,
    });
  }
}
const output = {
  source: `ShishirPatil/gorilla@${commit}:berkeley-function-call-leaderboard/bfcl_eval/data`,
  license: 'Apache-2.0',
  derived:
    'questions (user text) and ground-truth calls of the BFCL v4 categories above whose ground-truth tools are in fixtures/catalogues/bfcl.json; see scripts/extract-bfcl-questions.mjs',
  questions,
};
writeFileSync('fixtures/bfcl/questions.json', `${JSON.stringify(output, null, 1)}\n`);
const counts = {};
for (const question of questions) counts[question.category] = (counts[question.category] ?? 0) + 1;
console.log(questions.length, counts);
