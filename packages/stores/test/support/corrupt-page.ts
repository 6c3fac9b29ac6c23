import { closeSync, openSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Overwrites a leaf page of the journal's table in the middle of the file, as a failing disk or a stray
 * write would (the store must be closed). Returns the page number. The journal must span several pages.
 */
export function corruptJournalPage(file: string): number {
  const db = new Database(file);
  let leaves: { pageno: number }[];
  let pageSize: number;
  try {
    leaves = db
      .prepare("SELECT pageno FROM dbstat WHERE name = 'journal' AND pagetype = 'leaf' ORDER BY pageno")
      .all() as { pageno: number }[];
    pageSize = Number(db.pragma('page_size', { simple: true }));
  } finally {
    db.close();
  }
  if (leaves.length < 4) throw new Error(`the journal spans ${leaves.length} leaf pages; write more entries first`);
  const page = (leaves[Math.floor(leaves.length / 2)] as { pageno: number }).pageno;
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
  return page;
}
