// The pieces put on the board this turn and not yet sent, shared by the tables where a play is built
// piece by piece before one request carries it (Poker Tiles, Prism Words). A piece dropped on an
// empty square is staged, or refused with the game's sentence (it snaps back); a staged piece pressed
// goes back to the hand; a play the server refuses sends every staged piece back (the shell shows why).
//
//   const play = createStaging(ctx, {
//     place(pieceId, row, col),   // the staged entry for this drop ({ ...what the table keeps }), or
//                                 //   a string: the sentence why the piece may not go there
//     occupied,                   // the end of the sentence for a square that holds a piece:
//                                 //   "The square at row 4, column 7 already holds " + occupied
//     redraw(),                   // draws the table from play.staged
//   });
//   createBoard(host, { rows, cols, label, handLabel, ...play.hooks })
//   play.staged                   // [{ row, col, ...entry }], in the order they were put down
//   play.at(row, col)             // the staged entry on that square, if any
//   play.clear()                  // every staged piece back to the hand (the caller redraws)
//   play.send(decision)           // ctx.decide(decision), unless a request is on its way
import { squareName } from "./board.js";

export function createStaging(ctx, { place, occupied, redraw }) {
  let staged = [];
  const at = (row, col) => staged.find((s) => s.row === row && s.col === col);

  function drop(id, row, col) {
    const entry = place(id, row, col);
    if (typeof entry === "string") {
      ctx.say(entry);
      return false;
    }
    staged.push({ ...entry, row, col });
    redraw();
    return true;
  }

  function takeBack(row, col) {
    const piece = at(row, col);
    if (!piece) return;
    staged = staged.filter((s) => s !== piece);
    redraw();
  }

  return {
    get staged() { return staged; },
    at,
    clear() { staged = []; },
    async send(decision) {
      if (ctx.busy()) return;
      try {
        await ctx.decide(decision);
      } catch {
        staged = [];
        redraw();
      }
    },
    hooks: {
      drop, tap: takeBack, busy: ctx.busy, reducedMotion: ctx.reducedMotion,
      refuse: (id, row, col) => ctx.say(`The square at ${squareName(row, col)} already holds ${occupied}`),
    },
  };
}
