// The geometry of a Prism Words play, as the table needs it before the play is sent (the server's
// rules, egm/games/prism_words/board.py, decide; the lexicon stays on the server): which squares a
// block may still go on, why a square is refused, and the words a play forms with their points.
const LONG_WORD = 6;  // letters from which a word is doubled and may earn the pattern bonus
const PATTERN_BONUS = 25;
const RACK_BONUS = 25;

const key = (row, col) => `${row},${col}`;

// The table's squares: what is on the grid, and the blocks staged for the play being made.
export function squaresOf(table, staged) {
  const held = new Map();
  for (const sq of table.grid) {
    held.set(key(sq.row, sq.col), { letter: sq.letter, value: sq.star ? 0 : sq.value, face: sq.face });
  }
  const fresh = new Map(staged.map((s) => [key(s.row, s.col), s]));
  const on = (row, col) => row >= 0 && col >= 0 && row < table.rows && col < table.cols;
  return {
    held, fresh, on,
    filled: (row, col) => on(row, col) && held.has(key(row, col)),
    used: (row, col) => on(row, col) && (held.has(key(row, col)) || fresh.has(key(row, col))),
    at: (row, col) => fresh.get(key(row, col)) || held.get(key(row, col)),
  };
}

// Whether a play of these squares (blocks put on `cells`, all in one line) can be made legal by
// adding at most `spare` more blocks along `dir` ([0, 1] across, [1, 0] down): no gap left open,
// the first word over the centre pocket and long enough, later plays touching the grid.
function reachable(table, sq, cells, dir, spare) {  // sq: the squares with `cells` put down
  const [dr] = dir;
  const along = (cell) => (dr ? cell[0] : cell[1]);
  const fixed = dr ? cells[0][1] : cells[0][0];
  const point = (i) => (dr ? [i, fixed] : [fixed, i]);
  const lo = Math.min(...cells.map(along));
  const hi = Math.max(...cells.map(along));
  let need = 0;
  for (let i = lo; i <= hi; i += 1) if (!sq.used(...point(i))) need += 1;
  if (need > spare) return "gap";
  spare -= need;
  if (!table.grid.length) {  // the first play: every square of its word is a new block
    if (fixed !== (dr ? table.centre[1] : table.centre[0])) return "centre";
    const centre = along(table.centre);
    const span = Math.max(hi, centre) - Math.min(lo, centre) + 1;
    return Math.max(span, table.first_word_min) <= table.rack.length ? "" : "centre";
  }
  const touches = (i) => {
    const [r, c] = point(i);
    return [[0, 1], [0, -1], [1, 0], [-1, 0]].some(([a, b]) => sq.filled(r + a, c + b)) || sq.filled(r, c);
  };
  for (let i = lo; i <= hi; i += 1) if (touches(i)) return "";
  // Extend either end through empty squares (one block each) until the line touches the grid.
  for (const step of [-1, 1]) {
    let left = spare;
    for (let i = step < 0 ? lo - 1 : hi + 1; sq.on(...point(i)) && left > 0; i += step) {
      if (!sq.used(...point(i))) left -= 1;
      if (touches(i)) return "";
    }
  }
  return "connect";
}

const REASONS = {
  line: "The blocks are not in one line; place them all in one row or one column.",
  gap: "The blocks leave a gap in their line; fill the line between them.",
  centre: "The first word must cover the centre pocket (the gold square) and spell at least {n} letters.",
  connect: "The play is not connected to the blocks on the grid; join a word already there.",
  taken: "That square already holds a block; blocks never move.",
};

// Why a block may not go on (row, col) now, in a sentence, or "" when it may.
export function refusal(table, staged, row, col) {
  if (squaresOf(table, staged).used(row, col)) return REASONS.taken;
  const sq = squaresOf(table, [...staged, { row, col }]);
  const cells = [...staged.map((s) => [s.row, s.col]), [row, col]];
  const spare = table.rack.length - cells.length;
  const lines = [];
  if (cells.every(([r]) => r === row)) lines.push([0, 1]);
  if (cells.every(([, c]) => c === col)) lines.push([1, 0]);
  if (!lines.length) return REASONS.line;
  const why = lines.map((dir) => reachable(table, sq, cells, dir, spare));
  if (why.includes("")) return "";
  return REASONS[why[0]].replace("{n}", table.first_word_min);
}

// Every square a block may go on next.
export function legalSquares(table, staged) {
  const out = [];
  if (staged.length >= table.rack.length) return out;
  for (let row = 0; row < table.rows; row += 1) {
    for (let col = 0; col < table.cols; col += 1) {
      if (!refusal(table, staged, row, col)) out.push([row, col]);
    }
  }
  return out;
}

// The run of used squares through (row, col) along dir.
function run(sq, row, col, [dr, dc]) {
  while (sq.used(row - dr, col - dc)) [row, col] = [row - dr, col - dc];
  const cells = [];
  for (; sq.used(row, col); [row, col] = [row + dr, col + dc]) cells.push([row, col]);
  return cells;
}

function word(table, sq, cells) {
  const shown = cells.map(([r, c]) => sq.at(r, c));
  const long = cells.length >= LONG_WORD;
  const basic = shown.reduce((sum, s) => sum + s.value, 0);
  const doubled = long && table.doubling;
  const pattern = long && new Set(shown.map((s) => s.face)).size === 1 ? PATTERN_BONUS : 0;
  return { word: shown.map((s) => s.letter || "?").join(""), basic, doubled, pattern_bonus: pattern,
           points: basic * (doubled ? 2 : 1) + pattern };
}

// The words the staged blocks form, with their points ({ words, rackBonus, points }), or
// { problem } naming what keeps them from being a play. Whether each word is listed, the server says.
export function preview(table, staged) {
  if (!staged.length) return { problem: "" };
  const sq = squaresOf(table, staged);
  const rows = new Set(staged.map((s) => s.row));
  const cols = new Set(staged.map((s) => s.col));
  if (rows.size > 1 && cols.size > 1) return { problem: REASONS.line };
  const first = staged.reduce((a, b) => (a.row * 100 + a.col <= b.row * 100 + b.col ? a : b));
  const across = rows.size === 1 && (cols.size > 1 || run(sq, first.row, first.col, [0, 1]).length > 1);
  const dir = across ? [0, 1] : [1, 0];
  const main = run(sq, first.row, first.col, dir);
  if (staged.some((s) => !main.some(([r, c]) => r === s.row && c === s.col))) return { problem: REASONS.gap };
  const words = main.length > 1 ? [word(table, sq, main)] : [];
  for (const s of staged) {
    const cross = run(sq, s.row, s.col, [dir[1], dir[0]]);
    if (cross.length > 1) words.push(word(table, sq, cross));
  }
  if (!words.length) return { problem: "A single block alone spells no word; join it to a word." };
  const rackBonus = staged.length === table.rack_size ? RACK_BONUS : 0;
  return { words, rackBonus, points: words.reduce((sum, w) => sum + w.points, 0) + rackBonus };
}

// A word's scoring phases as they add up, e.g. "WHITER 12 ×2 +25 = 49" (just "CAT 5" when nothing is
// added).
export function phases(w) {
  if (!w.doubled && !w.pattern_bonus) return `${w.word} ${w.basic}`;
  return `${w.word} ${w.basic}${w.doubled ? " ×2" : ""}${w.pattern_bonus ? ` +${w.pattern_bonus}` : ""}`
    + ` = ${w.points}`;
}
