// Poker Grid's table in the browser: the 7 x 8 board, your hand, the lit squares, placing a card by
// dragging it or by tapping it and then a square, the machine's card shown arriving, the scores, and
// at the end what was paid and why, in money. The view is RoundView.table (docs/poker-grid.md).
import { createBoard, squareName, styled } from "/static/web/board.js";
import { cardNode, cardText } from "/static/web/cards.js";


const HANDS = { none: "no hand", pair: "a pair", two_pair: "two pair", three_of_a_kind: "three of a kind",
  straight: "a straight", flush: "a flush", full_house: "a full house", four_of_a_kind: "four of a kind",
  straight_flush: "a straight flush", royal_flush: "a royal flush", five_of_a_kind: "five of a kind" };

function seatName(seat, seats) {
  if (seat === 0) return "YOU";
  return seats <= 2 ? "MACHINE" : `MACHINE ${seat}`;
}

const points = (n) => `${n} point${n === 1 ? "" : "s"}`;
const cards = (n) => `${n} card${n === 1 ? "" : "s"}`;

// One card as the board draws it: a small face, or the wild space.
function squareOf(held) {
  if (!held) return {};
  if (held === "W") {
    const node = document.createElement("span");
    node.className = "pg-wild";
    node.textContent = "WILD";
    return { node, label: "wild space", classes: ["pg-wild-sq"] };
  }
  return { node: cardNode(held), label: cardText(held), taken: true };
}

export function mount(root, ctx) {
  root.innerHTML = `<div class="pg" hidden>
      <p class="pg-scores" aria-label="Scores"></p>
      <div class="pg-board"></div>
      <p class="pg-help"></p>
      <ol class="pg-plays" aria-label="Latest plays"></ol>
      <section class="pg-end" aria-label="What was paid" hidden></section>
    </div>`;
  const $ = (sel) => root.querySelector(sel);
  styled(new URL("table.css", import.meta.url).href).then(() => { $(".pg").hidden = false; });
  let board = null;
  let hand = [];
  let drawn = "";  // the board last drawn: a redraw of the same view changes nothing

  function place(id, row, col) {
    const card = hand[Number(id)];
    return ctx.decide({ kind: "place", args: { card, row, col } });
  }

  function build(table) {
    board = createBoard($(".pg-board"), {
      rows: table.rows, cols: table.cols, label: "Board", handLabel: "Your hand",
      drop: place, busy: ctx.busy, reducedMotion: ctx.reducedMotion,
      refuse: (id, row, col) => ctx.say(`The square at ${squareName(row, col)} already holds a card; `
                                        + "choose a lit square."),
    });
  }

  function drawPlays(table) {
    const seats = table.scores.length;
    $(".pg-plays").replaceChildren(...table.last_plays.map((move) => {
      const item = document.createElement("li");
      const what = move.points ? `${HANDS[move.category]}, ${points(move.points)}` : "no hand";
      item.textContent = `${seatName(move.seat, seats)}: ${cardText(move.card)} at ${squareName(move.row, move.col)}, `
        + what;
      return item;
    }));
  }

  // Each square outlined by who played there last, and the placed card's points on its badge.
  function marks(table) {
    const marked = new Map();
    for (const move of table.last_plays) {
      const who = move.seat === 0 ? "pg-you" : "pg-machine";
      for (const [row, col] of move.cells) marked.set(`${row},${col}`, { who, badge: "" });
      if (move.points) marked.set(`${move.row},${move.col}`, { who, badge: move.points });
      else if (!marked.has(`${move.row},${move.col}`)) marked.set(`${move.row},${move.col}`, { who, badge: "" });
    }
    return marked;
  }

  function drawEnd(view, info) {
    const end = $(".pg-end");
    end.hidden = !info.complete;
    if (!info.complete) return;
    const table = view.table;
    const seats = table.scores.length;
    const lines = (table.pays || []).map(([words, units]) => {
      const item = document.createElement("li");
      item.textContent = `${words}: ${units} × your bet = ${ctx.money(units * view.bet_credits)}`;
      return item;
    });
    end.innerHTML = "<h2></h2><p class='pg-final'></p><p>The margin is your points less the machine's best.</p>"
      + "<ul class='pg-pays' aria-label='Pays'></ul><p class='pg-total'></p>";
    end.querySelector("h2").textContent = view.result_text;
    end.querySelector(".pg-final").textContent = table.scores
      .map((score, seat) => `${seatName(seat, seats)} ${points(score)}`).join(" · ");
    end.querySelector(".pg-pays").replaceChildren(...lines);
    end.querySelector(".pg-total").textContent = `Paid ${ctx.cents(info.winCents || 0)} `
      + `for a stake of ${ctx.cents(info.stakeCents)}.`;
  }

  return {
    update(view, info) {
      const table = view.table;
      const key = JSON.stringify([table, info.complete]);
      if (key === drawn) return;
      const before = drawn;
      drawn = key;
      if (!board) build(table);
      const seats = table.scores.length;
      $(".pg-scores").textContent = [
        ...table.scores.map((score, seat) => `${seatName(seat, seats)} ${points(score)}`),
        `Draw pile ${cards(table.draw_pile)}`,
        ...table.opponent_cards.map((n, i) => `${seatName(i + 1, seats)} holds ${cards(n)}`),
      ].join(" · ");
      const marked = marks(table);
      board.legal(table.legal);
      board.squares((row, col) => {
        const square = squareOf(table.board[row][col]);
        const mark = marked.get(`${row},${col}`);
        if (mark) {
          square.classes = [...(square.classes || []), mark.who];
          if (mark.badge && square.node) {
            const badge = document.createElement("b");
            badge.className = "pg-badge";
            badge.textContent = `+${mark.badge}`;
            const node = document.createElement("span");
            node.className = "pg-scored";
            node.append(square.node, badge);
            square.node = node;
            square.label += `, scored ${points(mark.badge)}`;
          }
        }
        return square;
      });
      hand = table.hand;
      board.pieces(hand.map((card, i) => ({ id: String(i), node: cardNode(card), label: `Card ${cardText(card)}` })));
      drawPlays(table);
      $(".pg-help").textContent = info.complete ? ""
        : "Your turn: drag a card onto a lit square, or tap a card and then a square.";
      drawEnd(view, info);
      // A move made from this page: show the machine's cards arriving, in the order they were played.
      if (before) {
        board.reveal(table.last_plays.filter((move) => move.seat !== 0).map((move) => [move.row, move.col]));
      }
    },
    destroy() {
      board?.destroy();
      root.innerHTML = "";
    },
  };
}
