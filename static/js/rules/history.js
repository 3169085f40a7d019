// A game's history as app/engine/game.py keeps it: a list of steps (each the moves of one action
// and the position after each), what Undo took back, and the undo floor (UNDO_LIMIT moves).

export const UNDO_LIMIT = 100;

export class History {
  constructor(start) {
    this.start = start;
    this.steps = []; // {moves, positions, total}
    this.undone = []; // the next to redo last
    this.undoFloor = 0;
  }

  get position() {
    return this.steps.length ? this.steps[this.steps.length - 1].positions.at(-1) : this.start;
  }

  get moveCount() {
    return this.steps.length ? this.steps[this.steps.length - 1].total : 0;
  }

  get lastMove() {
    return this.steps.length ? this.steps[this.steps.length - 1].moves.at(-1) : null;
  }

  /** Record an action's moves (a new branch: what Undo took back is dropped). */
  push(moves, positions) {
    this.undone = [];
    this.step({ moves, positions, total: this.moveCount + moves.length });
  }

  step(step) {
    this.steps.push(step);
    this.undoFloor = Math.max(this.undoFloor, step.total - UNDO_LIMIT);
    this.clearSelection();
  }

  canUndo() {
    const last = this.steps[this.steps.length - 1];
    return !!last && last.total - last.moves.length >= this.undoFloor;
  }

  canRedo() {
    return this.undone.length > 0;
  }

  undo() {
    if (!this.canUndo()) return false;
    this.undone.push(this.steps.pop());
    this.clearSelection();
    return true;
  }

  redo() {
    if (!this.undone.length) return false;
    this.step(this.undone.pop());
    return true;
  }

  restart() {
    this.steps = [];
    this.undone = [];
    this.undoFloor = 0;
    this.clearSelection();
  }

  clearSelection() {}

  /** Rebuild the history a record writes (app/engine/game.py history_text: the actions played
   * joined by "." and an action's moves by "+", what Redo would play, the next first, and the
   * undo floor) by replaying it from the start through ``play(position, text)``: the move
   * ``text`` names and the position after it, [move, position], or null when it is no move
   * of this game or the rules refuse it there. False (nothing changed) when any of it does
   * not replay. */
  load(line, redo, floor, play) {
    const replayed = (text, position, total) => {
      const steps = [];
      for (const action of text ? text.split(".") : []) {
        const moves = [];
        const positions = [];
        for (const text of action.split("+")) {
          const played = play(position, text);
          if (!played) return null;
          moves.push(played[0]);
          position = played[1];
          positions.push(position);
        }
        total += moves.length;
        steps.push({ moves, positions, total });
      }
      return steps;
    };
    const steps = replayed(line, this.start, 0);
    if (!steps) return false;
    const last = steps.at(-1);
    const redone = replayed(redo, last ? last.positions.at(-1) : this.start, last ? last.total : 0);
    const total = last ? last.total : 0;
    if (!redone || !Number.isInteger(floor) || floor < 0 || floor > total) return false;
    this.steps = steps;
    this.undone = redone.reverse();
    this.undoFloor = floor;
    this.clearSelection();
    return true;
  }

  /** The history as a record writes it: [line, redo, floor] (``text``: a move's notation). */
  written(text) {
    const write = (steps) => steps.map((step) => step.moves.map(text).join("+")).join(".");
    return [write(this.steps), write(this.undone.slice().reverse()), this.undoFloor];
  }
}
