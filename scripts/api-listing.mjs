// Prints the public API of a built package as one flat listing: for every entry point of its `exports` map
// with types, every exported name with its declaration text (JSDoc included) and its type as the compiler
// resolves it. Two listings are equal exactly when the declarations a user sees are the same, whichever
// files inside `dist` they live in, so a move of internal files can be checked against a build of main:
//   node scripts/api-listing.mjs packages/core > before.txt   (on main, after `turbo run build`)
//   node scripts/api-listing.mjs packages/core > after.txt    (on the branch) ; diff before.txt after.txt
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';

const packageDir = resolve(process.argv[2] ?? '.');
const manifest = JSON.parse(readFileSync(resolve(packageDir, 'package.json'), 'utf8'));

/** Each subpath of the `exports` map that declares types, with its declaration file. */
function typedEntryPoints(exportsMap) {
  const entries = [];
  for (const [subpath, target] of Object.entries(exportsMap ?? {})) {
    const types = typeof target === 'object' && target !== null ? target.types : undefined;
    if (typeof types === 'string') entries.push([subpath, resolve(packageDir, types)]);
  }
  return entries;
}

const flags =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
  ts.TypeFormatFlags.WriteArrayAsGenericType;

/** The declaration as written in the .d.ts, with its JSDoc, whitespace runs folded so indentation is moot. */
function declarationText(declaration) {
  const source = declaration.getSourceFile();
  const start = ts.getLeadingCommentRanges(source.text, declaration.getFullStart())?.[0]?.pos ?? declaration.getStart();
  return source.text.slice(start, declaration.getEnd()).replace(/\s+/g, ' ').trim();
}

/** Members of interfaces and classes with their resolved types, so a changed referenced type shows too. */
function memberLines(checker, symbol, declaration) {
  const lines = [];
  const type = symbol.flags & ts.SymbolFlags.Class ? checker.getTypeOfSymbol(symbol) : undefined;
  const instance = checker.getDeclaredTypeOfSymbol(symbol);
  for (const property of checker.getPropertiesOfType(instance)) {
    const propertyType = checker.getTypeOfSymbolAtLocation(property, declaration);
    lines.push(`    .${property.getName()}: ${checker.typeToString(propertyType, declaration, flags)}`);
  }
  if (type !== undefined) {
    for (const property of checker.getPropertiesOfType(type)) {
      if (property.getName() === 'prototype') continue;
      const propertyType = checker.getTypeOfSymbolAtLocation(property, declaration);
      lines.push(`    static .${property.getName()}: ${checker.typeToString(propertyType, declaration, flags)}`);
    }
  }
  return lines;
}

function listing(subpath, file) {
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`no declaration file at ${file}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error(`${file} is not a module`);
  const lines = [`entry ${subpath}`];
  const exported = checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.getName().localeCompare(b.getName()));
  for (const alias of exported) {
    const symbol = alias.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(alias) : alias;
    lines.push(`  export ${alias.getName()}`);
    for (const declaration of symbol.getDeclarations() ?? []) {
      lines.push(`    ${declarationText(declaration)}`);
      if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class)) {
        lines.push(...memberLines(checker, symbol, declaration));
      }
    }
    if (symbol.flags & ts.SymbolFlags.Value) {
      const type = checker.getTypeOfSymbol(symbol);
      lines.push(`    value: ${checker.typeToString(type, undefined, flags)}`);
    }
    if (symbol.flags & ts.SymbolFlags.TypeAlias) {
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      lines.push(`    type: ${checker.typeToString(type, undefined, flags | ts.TypeFormatFlags.InTypeAlias)}`);
    }
  }
  // A type the compiler cannot name from the entry point is written `import("<absolute path>").Name`: keep
  // the name only, as the file behind it is exactly what a move changes and the name's own entry shows it.
  // Well-known symbols are named by an internal id (`__@asyncIterator@1208`) that changes with any edit.
  return lines
    .join('\n')
    .replace(/import\("[^"]*"\)\./g, '')
    .replace(/__@(\w+)@\d+/g, '[Symbol.$1]');
}

const entries = typedEntryPoints(manifest.exports);
if (entries.length === 0) throw new Error(`${manifest.name} declares no typed entry point in its exports map`);
console.log(`${manifest.name}\n${entries.map(([subpath, file]) => listing(subpath, file)).join('\n')}`);
