import { type CallView, gateOfCall, type TurnView } from './run-view.js';

export const ROW = { head: 30, model: 22, call: 26, marker: 24, gap: 10 } as const;

/** A turn as drawn: the calls the filter kept, its markers, and its place in the scrolled list. */
export interface TurnBox {
  readonly turn: TurnView;
  readonly calls: readonly CallView[];
  readonly markers: number;
  /** Pause, decision, gate, text, sources and kept-part lines: shown unless the filter narrows to refusals or errors. */
  readonly showMarkers: boolean;
  readonly top: number;
  readonly height: number;
}

/**
 * Where each turn goes. Heights depend only on counts, so the whole list is laid out without touching the
 * DOM and only the turns in view are rendered (a 500-turn run draws a screenful).
 */
export function layoutTurns(
  turns: readonly TurnView[],
  keep: (call: CallView) => boolean,
  keepEmptyTurns: boolean,
  showMarkers = true,
): { boxes: TurnBox[]; height: number } {
  const boxes: TurnBox[] = [];
  let top = 0;
  for (const turn of turns) {
    const calls = turn.calls.filter(keep);
    if (!keepEmptyTurns && calls.length === 0) continue;
    const markers = showMarkers ? markerCount(turn) : errorMarkers(turn);
    const height =
      ROW.head +
      (turn.modelCall === undefined ? 0 : ROW.model) +
      calls.length * ROW.call +
      markers * ROW.marker +
      ROW.gap;
    boxes.push({ turn, calls, markers, showMarkers, top, height });
    top += height;
  }
  return { boxes, height: top };
}

export function markerCount(turn: TurnView): number {
  const model = turn.modelCall;
  const text = model?.text !== undefined && model.text.trim() !== '' ? 1 : 0;
  const gated = turn.calls.filter((call) => gateOfCall(call) !== undefined).length;
  const sources = model?.sources !== undefined && model.sources.length > 0 ? 1 : 0;
  const kept = model?.providerParts !== undefined && model.providerParts.length > 0 ? 1 : 0;
  return (
    turn.pauses.length + turn.decisions.length + gated + (model?.error === undefined ? 0 : 1) + text + sources + kept
  );
}

function errorMarkers(turn: TurnView): number {
  return turn.modelCall?.error === undefined ? 0 : 1;
}

/** The boxes that intersect [from, to): binary search on the tops. */
export function visibleBoxes(boxes: readonly TurnBox[], from: number, to: number): TurnBox[] {
  let low = 0;
  let high = boxes.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const box = boxes[middle];
    if (box !== undefined && box.top + box.height <= from) low = middle + 1;
    else high = middle;
  }
  const shown: TurnBox[] = [];
  for (let index = low; index < boxes.length; index += 1) {
    const box = boxes[index];
    if (box === undefined || box.top >= to) break;
    shown.push(box);
  }
  return shown;
}
