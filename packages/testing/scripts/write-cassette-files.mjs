// Writes a set of generated cassette files into a folder, or with `--check` only reports the files that differ,
// are missing or are left over (exiting 1 if there are any). Shared by the scripts that generate cassettes.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/**
 * @param {string} directory
 * @param {Map<string, string>} files text by path relative to `directory`
 * @param {string} label what the files are, for the summary line
 */
export function writeCassetteFiles(directory, files, label) {
  const check = process.argv.includes('--check');
  const onDisk = listJson(directory);
  const leftOver = onDisk.filter((file) => !files.has(file));
  const differing = [...files].filter(([file, text]) => read(join(directory, file)) !== text).map(([file]) => file);

  if (check) {
    for (const file of differing) console.error(`stale or missing: ${file}`);
    for (const file of leftOver) console.error(`left over: ${file}`);
    process.exit(differing.length + leftOver.length === 0 ? 0 : 1);
  }

  for (const file of differing) {
    const path = join(directory, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, files.get(file) ?? '');
  }
  for (const file of leftOver) rmSync(join(directory, file));
  console.log(`${files.size} ${label}: ${differing.length} written, ${leftOver.length} removed`);
}

function listJson(root) {
  try {
    return readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((entry) => entry.endsWith('.json'))
      .map((entry) => entry.split(sep).join('/'));
  } catch {
    return [];
  }
}

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
