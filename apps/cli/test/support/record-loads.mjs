// `node --import <this file> …` records the URL of every module the process loads, one per line, in the file
// named by TOOLCIRCUIT_LOAD_LOG. A test uses it to pin what `toolcircuit --help` does NOT load.
import { register } from 'node:module';

register('./record-loads-hook.mjs', import.meta.url, { data: { log: process.env.TOOLCIRCUIT_LOAD_LOG } });
