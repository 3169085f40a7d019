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
}
