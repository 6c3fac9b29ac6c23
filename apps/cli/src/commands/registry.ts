import type { Command } from '../command.js';
import { convertCommand } from './convert-command.js';
import { demoCommand } from './demo-command.js';
import { journalAnchorCommand } from './journal-anchor-command.js';
import { journalVerifyCommand } from './journal-verify-command.js';
import { lintCommand } from './lint-command.js';
import { recordCommand } from './record-command.js';
import { replayCommand } from './replay-command.js';
import { runCommand } from './run-command.js';

/**
 * Every `toolcircuit` command, in the order `--help` lists them. A new command is one file in this folder
 * exporting a {@link Command}, plus one line here.
 */
export const COMMANDS: readonly Command[] = [
  demoCommand,
  runCommand,
  lintCommand,
  convertCommand,
  recordCommand,
  replayCommand,
  journalVerifyCommand,
  journalAnchorCommand,
];
