import { type Eventually, isPromiseLike } from '../async/eventually.js';
import type { Cost } from '../cost/turn-cost.js';
import { JournalWriteError } from '../errors/journal-write-error.js';
import { answeringModelNote } from '../fallback/answering-model-note.js';
import { isoNow } from '../journal/iso-now.js';
import type { Journal, JournalNote } from '../journal/journal.js';
import { jsonDigest } from '../json/canonical-json.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { Session } from '../session/session.js';

/**
 * Writes the journal notes of a turn: which model of a fallback list answered it (see `answeringModelNote`),
 * with what the turn cost at its price (`cost`), then a note for each `provider` part of the turn (something the adapter kept whole because it had
 * no neutral meaning for it), in order, awaiting each like a call's entry: the audit trail says what the model
 * sent besides calls. Nothing is written (and no promise made) for a turn without such parts, or without a
 * journal that takes notes. (A run on one model has its cost in `LoopResult.cost` and OTel, not in a note: a
 * note per turn would be one more durable write per turn.) A journal that fails stops the run, as it does for a call.
 */
export function noteProviderParts(
  journal: Journal | undefined,
  session: Session,
  runId: string,
  turn: number,
  modelTurn: ModelTurn,
  cost: Cost,
): Eventually<void> {
  if (journal?.note === undefined) return;
  const notes: JournalNote[] = [];
  const answering = answeringModelNote(session, runId, turn, modelTurn, cost);
  if (answering !== undefined) notes.push(answering);
  for (const [index, part] of modelTurn.content.entries()) {
    if (part.type !== 'provider') continue;
    notes.push({
      kind: 'provider_part',
      at: isoNow(),
      runId,
      sessionId: session.id,
      humanId: session.humanId,
      turn,
      provider: part.provider,
      partKind: part.kind,
      index,
      dataDigest: jsonDigest(part.data),
    });
  }
  if (notes.length === 0) return;
  return writeNotes(journal, notes, 0);
}

function writeNotes(journal: Journal, notes: readonly JournalNote[], from: number): Eventually<void> {
  for (let position = from; position < notes.length; position += 1) {
    const note = notes[position] as JournalNote;
    let written: void | Promise<void>;
    try {
      written = journal.note?.(note);
    } catch (error) {
      throw noteError(note, error);
    }
    if (isPromiseLike(written)) {
      return Promise.resolve(written).then(
        () => writeNotes(journal, notes, position + 1),
        (error: unknown) => {
          throw noteError(note, error);
        },
      );
    }
  }
}

function noteError(note: JournalNote, cause: unknown): JournalWriteError {
  const what = note.kind === 'provider_part' ? `${note.partKind} part ${note.index}` : 'answering model';
  return new JournalWriteError(`turn ${note.turn}, ${what}`, cause);
}
