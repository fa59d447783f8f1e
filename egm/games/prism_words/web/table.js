// Prism Words' table in the browser: the 15 x 15 grid with its centre pocket, your rack of two-faced
// blocks, the lit squares, a play made block by block (drag a face onto a square, or tap a face and
// then a square: the face you take is the face shown), the words and points it makes before it is
// sent, EXCHANGE and PASS, the machine's play shown arriving block by block, the scores in points and,
// at the end, what was paid and why, in money. The view is RoundView.table (docs/prism-words.md).
import { createBoard } from "/static/web/board.js";
import { createStaging } from "/static/web/staging.js";
import { legalSquares, phases, preview, refusal } from "./rules.js";

const style = document.createElement("link");
style.rel = "stylesheet";
style.href = new URL("table.css", import.meta.url).href;

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const FACES = ["left", "right"];

const points = (n) => `${n} point${Math.abs(n) === 1 ? "" : "s"}`;
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
const said = (face) => (face === "*" ? "star" : face);  // a face in words: "A1", "star"

function seatName(seat, seats) {
  if (seat === 0) return "YOU";
  return seats <= 2 ? "MACHINE" : `MACHINE ${seat}`;
}

// A face as the rack and the grid draw it: the letter, its numeral in the corner (boxed on a left
// face), a star face gold.
function faceNode(letter, value, face, star) {
  const node = document.createElement("span");
  node.className = `pw-face pw-${face}${star ? " pw-star" : ""}`;
  const big = document.createElement("b");
  big.textContent = letter || "★";
  node.append(big);
  if (!star) {
    const small = document.createElement("small");
    small.textContent = String(value);
    node.append(small);
  }
  return node;
}

// "A1" -> { letter: "A", value: 1 }; "*" -> a star, worth nothing.
function faceOf(text) {
  if (text === "*") return { letter: "", value: 0, star: true };
  return { letter: text[0], value: Number(text.slice(1)), star: false };
}

// The pays with the same words (an award earned by several plays) as one line: words -> [units, count].
function payGroups(pays) {
  const groups = new Map();
  for (const [words, units] of pays) {
    const [sum, count] = groups.get(words) || [0, 0];
    groups.set(words, [sum + units, count + 1]);
  }
  return groups;
}

export function mount(root, ctx) {
  document.head.append(style);
  root.innerHTML = `<div class="pw">
      <p class="pw-scores" aria-label="Scores"></p>
      <div class="pw-board"></div>
      <div class="pw-side">
        <p class="pw-star-pick" hidden><label>The star stands for <select aria-label="The star stands for">
          <option value="">choose a letter</option></select></label></p>
        <p class="pw-preview" aria-label="Your play" aria-live="polite"></p>
        <div class="pw-buttons" role="group" aria-label="Your move" hidden>
          <button type="button" class="pw-play">PLAY</button>
          <button type="button" class="pw-clear">CLEAR</button>
          <button type="button" class="pw-exchange">EXCHANGE</button>
          <button type="button" class="pw-pass">PASS</button>
        </div>
        <ol class="pw-moves" aria-label="Latest moves"></ol>
        <section class="pw-end" aria-label="What was paid" hidden></section>
      </div>
    </div>`;
  const $ = (sel) => root.querySelector(sel);
  const starSelect = $(".pw-star-pick select");
  for (const letter of LETTERS) starSelect.append(new Option(letter, letter));
  let board = null;
  let view = null;
  let info = null;
  let roundKey = "";  // the rack and grid the staged blocks were put against
  let revealed = "";  // the machine's move last shown arriving

  const table = () => view.table;
  const open = () => Boolean(view && view.decision_awaited && !info.complete);
  const rackBlock = (block) => table().rack.find((b) => b.block === block);

  // A face put on a square: staged for the play (nothing is sent until PLAY), or refused with the
  // rule it breaks. The play being made: [{ block, face, row, col, letter, value, star }].
  const play = createStaging(ctx, {
    place(id, row, col) {
      const [block, face] = id.split(":");
      const why = refusal(table(), play.staged, row, col);
      if (why) return why;
      ctx.say("");
      return { block: Number(block), face, ...faceOf(rackBlock(Number(block))[face]) };
    },
    occupied: "a block; blocks never move.",
    redraw: draw,
  });

  function build() {
    board = createBoard($(".pw-board"), {
      rows: table().rows, cols: table().cols, label: "Grid", handLabel: "Your rack", ...play.hooks,
    });
  }

  function decision() {
    return { kind: "play", args: { placements: play.staged.map((s) => ({
      row: s.row, col: s.col, block: s.block, face: s.face, ...(s.star ? { letter: s.letter } : {}) })) } };
  }

  $(".pw-play").onclick = () => play.send(decision());
  $(".pw-clear").onclick = () => { play.clear(); draw(); };
  $(".pw-exchange").onclick = () => { play.clear(); play.send({ kind: "exchange" }); };
  $(".pw-pass").onclick = () => { play.clear(); play.send({ kind: "pass" }); };
  starSelect.onchange = () => {
    const star = play.staged.find((s) => s.star);
    if (star) star.letter = starSelect.value;
    draw();
  };

  function drawSquares() {
    const t = table();
    const held = new Map(t.grid.map((sq) => [`${sq.row},${sq.col}`, sq]));
    const fresh = new Map(play.staged.map((s) => [`${s.row},${s.col}`, s]));
    const latest = new Map();
    for (const move of t.last_moves) {
      for (const p of move.placements || []) latest.set(`${p.row},${p.col}`, move.seat);
    }
    board.squares((row, col) => {
      const at = `${row},${col}`;
      const centre = row === t.centre[0] && col === t.centre[1];
      const classes = centre ? ["pw-centre"] : [];
      const s = fresh.get(at);
      if (s) {
        return { node: faceNode(s.letter, s.value, s.face, s.star), classes: [...classes, "pw-staged"],
                 label: `${s.letter || "star"}, your ${s.face} face, not yet played (press to take it back)`,
                 taken: true };
      }
      const sq = held.get(at);
      if (!sq) return { classes, label: centre ? "centre pocket" : "" };
      if (latest.has(at)) classes.push(latest.get(at) === 0 ? "pw-yours" : "pw-theirs");
      return { node: faceNode(sq.letter, sq.value, sq.face, sq.star), classes, taken: true,
               label: `${sq.letter}${sq.star ? " (star)" : sq.value}` };
    });
    board.legal(open() ? legalSquares(t, play.staged) : []);
  }

  function drawRack() {
    const t = table();
    const out = play.staged.map((s) => s.block);
    const pieces = [];
    if (open()) {
      for (const block of t.rack.filter((b) => !out.includes(b.block))) {
        for (const face of FACES) {
          const shown = faceOf(block[face]);
          pieces.push({
            id: `${block.block}:${face}`, node: faceNode(shown.letter, shown.value, face, shown.star),
            classes: [`pw-piece-${face}`],
            label: `Block ${said(block.left)} ${said(block.right)}, ${face} face ${said(block[face])}`,
          });
        }
      }
    }
    board.pieces(pieces);
  }

  function drawPreview() {
    const star = play.staged.find((s) => s.star);
    $(".pw-star-pick").hidden = !star;
    if (star) starSelect.value = star.letter || "";
    const made = preview(table(), play.staged);
    const ready = play.staged.length > 0 && !made.problem && !(star && !star.letter);
    let text = made.problem || "";
    if (!play.staged.length) {
      text = open() ? "Drag a face of a block onto the grid, or tap a face and then a square." : "";
    } else if (!made.problem) {
      const bonus = made.rackBonus ? ` · all six blocks +${made.rackBonus}` : "";
      text = `${made.words.map(phases).join(" · ")}${bonus} = ${points(made.points)}`;
    }
    $(".pw-preview").textContent = text;
    $(".pw-play").disabled = !ready;
    $(".pw-clear").disabled = !play.staged.length;
    $(".pw-exchange").disabled = !table().bag;
    $(".pw-buttons").hidden = !open();
  }

  function drawScores() {
    const t = table();
    const names = t.scores.map((score, seat) => `${seatName(seat, t.scores.length)} ${points(score)}`);
    const bag = `${t.bag} block${t.bag === 1 ? "" : "s"} in the bag`;
    $(".pw-scores").textContent = `${names.join(" · ")} · ${bag}`;
  }

  function moveLine(move, seats) {
    const who = seatName(move.seat, seats);
    if (move.kind === "exchange") return `${who} exchanged the rack`;
    if (move.kind === "pass") return `${who} passed`;
    const bonus = move.rack_bonus ? ` · all six blocks +${move.rack_bonus}` : "";
    return `${who}: ${move.words.map(phases).join(" · ")}${bonus} = ${points(move.points)}`;
  }

  function drawMoves() {
    const t = table();
    $(".pw-moves").replaceChildren(...t.last_moves.map((move) => {
      const item = document.createElement("li");
      item.textContent = moveLine(move, t.scores.length);
      item.className = move.seat === 0 ? "pw-you" : "pw-machine";
      return item;
    }));
  }

  // The end: the points, the blocks left on the racks, and what was paid and why, in money.
  function drawEnd() {
    const end = $(".pw-end");
    end.hidden = !info.complete;
    if (!info.complete) return;
    const t = table();
    const seats = t.scores.length;
    const lines = [];
    const adjust = t.end_adjustments || [];
    if (adjust.some((a) => a)) {
      lines.push(`Blocks left on the racks: ${adjust.map((a, seat) => `${seatName(seat, seats)} ${signed(a)}`)
        .join(", ")} points.`);
    }
    const standings = t.scores.map((s, seat) => `${seatName(seat, seats)} ${points(s)}`).join(", ");
    const paid = [...payGroups(t.pays || [])].map(([words, [units, count]]) => {
      const plays = count > 1 ? ` (${count} plays)` : "";
      return `${words}${plays}: ${units} × your bet = ${ctx.money(units * view.bet_credits)}`;
    });
    const heading = document.createElement("h2");
    heading.textContent = view.result_text;
    const final = document.createElement("p");
    final.textContent = `Final points: ${standings}. ${lines.join(" ")}`.trim();
    const list = document.createElement("ul");
    list.setAttribute("aria-label", "Pays");
    list.replaceChildren(...paid.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }));
    const total = document.createElement("p");
    total.className = "pw-total";
    total.textContent = `Paid ${ctx.cents(info.winCents || 0)} for a stake of ${ctx.cents(info.stakeCents)}.`;
    end.replaceChildren(heading, final, list, total);
  }

  // The machine's latest play, block by block, once per play (and again after a reload).
  function revealMachine() {
    const t = table();
    const theirs = t.last_moves.filter((m) => m.seat !== 0);
    const sign = JSON.stringify([t.grid.length, theirs]);
    if (sign === revealed) return;
    revealed = sign;
    if (!theirs.length) return;
    ctx.say(theirs.map((m) => moveLine(m, t.scores.length)).join(". "));
    const cells = theirs.flatMap((m) => (m.placements || []).map((p) => [p.row, p.col]));
    board.reveal(cells);
  }

  function draw() {
    drawSquares();
    drawRack();
    drawPreview();
  }

  return {
    update(nextView, nextInfo) {
      view = nextView;
      info = nextInfo;
      if (!board) build();
      const key = JSON.stringify([table().rack.map((b) => b.block), table().grid.length, view.step]);
      if (key !== roundKey) {
        roundKey = key;
        play.clear();
      }
      draw();
      drawScores();
      drawMoves();
      drawEnd();
      revealMachine();
    },
    destroy() {
      board?.destroy();
      root.innerHTML = "";
    },
  };
}
