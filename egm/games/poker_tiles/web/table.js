// Poker Tiles' table in the browser: the 13 x 13 board with its starting area, STARTING ZONE centre
// and card squares; your rack; tiles put on the board by dragging them or tapping a tile and then a
// square (a lens on a phone, where squares are ~28 px), then sent as one play; a joker declared as
// the card it plays as; pass, exchange and joker swaps; the machine's tiles shown arriving one by
// one; and at the end what was paid and why, in money. The view is RoundView.table (docs/poker-tiles.md).
import { createBoard, squareName, styled } from "/static/web/board.js";
import { cardNode, cardText, isJoker } from "/static/web/cards.js";
import { createStaging } from "/static/web/staging.js";


const HANDS = { pair: "a pair", two_pair: "two pair", three_of_a_kind: "three of a kind",
  straight: "a straight", flush: "a flush", full_house: "a full house", four_of_a_kind: "four of a kind",
  straight_flush: "a straight flush", royal_flush: "a royal flush", five_of_a_kind: "five of a kind" };
const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
const SUITS = [["c", "clubs ♣"], ["d", "diamonds ♦"], ["h", "hearts ♥"], ["s", "spades ♠"]];

const seatName = (seat, seats) => (seat === 0 ? "YOU" : seats <= 2 ? "MACHINE" : `MACHINE ${seat}`);
const count = (n, what) => `${n} ${what}${n === 1 ? "" : "s"}`;
const points = (n) => count(n, "point");

// A tile as players read it: a natural card as itself, a joker as the card it plays as.
function tileWords(card, joker) {
  return joker ? `joker as ${cardText(card)}` : cardText(card);
}

function tileNode(card, joker) {
  const node = cardNode(card);
  if (joker) {
    node.classList.add("pt-joker");
    const star = document.createElement("small");
    star.textContent = "★";
    node.append(star);
  }
  return node;
}

export function mount(root, ctx) {
  root.innerHTML = `<div class="pt" hidden>
      <p class="pt-scores" aria-label="Scores"></p>
      <div class="pt-board"></div>
      <div class="pt-declare" role="group" aria-label="Declare the joker" hidden>
        <span>The joker plays as</span>
        <label>Rank <select class="pt-rank"></select></label>
        <label>Suit <select class="pt-suit"></select></label>
        <button type="button" class="pt-declared">DECLARE</button>
      </div>
      <div class="pt-actions" hidden>
        <button type="button" class="pt-play">PLAY TILES</button>
        <button type="button" class="pt-back">TAKE BACK</button>
        <button type="button" class="pt-pass">PASS</button>
        <button type="button" class="pt-exchange">EXCHANGE</button>
        <span class="pt-swaps"></span>
      </div>
      <form class="pt-trade" aria-label="Exchange tiles" hidden>
        <p>Choose the tiles to give back to the pool:</p>
        <div class="pt-trade-tiles"></div>
        <button type="submit">EXCHANGE THESE</button>
        <button type="button" class="pt-trade-cancel">CANCEL</button>
      </form>
      <p class="pt-help"></p>
      <ol class="pt-moves" aria-label="Latest moves"></ol>
      <section class="pt-end" aria-label="What was paid" hidden></section>
    </div>`;
  const $ = (sel) => root.querySelector(sel);
  styled(new URL("table.css", import.meta.url).href).then(() => { $(".pt").hidden = false; });
  $(".pt-rank").replaceChildren(...RANKS.map((r) => new Option(r === "T" ? "10" : r, r)));
  $(".pt-suit").replaceChildren(...SUITS.map(([s, words]) => new Option(words, s)));
  let board = null;
  let view = null;
  let info = null;
  let drawn = "";

  const table = () => view.table;
  // This turn's tiles on the board, not yet sent: { slot, row, col, card, as }.
  const play = createStaging(ctx, {
    place: (id) => ({ slot: Number(id), card: table().rack[Number(id)] }),
    occupied: "a tile; choose an empty square.",
    redraw,
  });
  const declaring = () => play.staged.find((t) => isJoker(t.card) && !t.as);

  function build() {
    board = createBoard($(".pt-board"), {
      rows: table().rows, cols: table().cols, label: "Board", handLabel: "Your rack", ...play.hooks,
    });
  }

  // What a square shows: a tile played, a tile placed this turn, or its marks (the starting area,
  // the STARTING ZONE centre, the card that doubles there).
  function square(row, col, marks) {
    const held = table().board[row][col];
    if (held) return { node: tileNode(held.card, held.joker), label: tileWords(held.card, held.joker), taken: true };
    const tile = play.at(row, col);
    if (tile) {
      const joker = isJoker(tile.card);
      const node = joker && !tile.as ? cardNode("JK") : tileNode(joker ? tile.as : tile.card, joker);
      const words = joker ? (tile.as ? tileWords(tile.as, true) : "joker") : cardText(tile.card);
      return { node, label: `${words}, placed this turn`, classes: ["pt-staged"], taken: true };
    }
    const key = `${row},${col}`;
    const classes = [];
    const words = [];
    if (marks.start.has(key)) classes.push("pt-start");
    if (marks.centre === key) {
      classes.push("pt-centre");
      words.push("starting zone centre");
    }
    const card = marks.cards.get(key);
    let node;
    if (card) {
      node = document.createElement("span");
      node.className = "pt-mark";
      node.textContent = cardText(card);
      words.push(`${cardText(card)} doubles here`);
    }
    return { node, classes, label: words.join(", ") };
  }

  function lit() {
    const open = new Set(table().legal.map(([r, c]) => `${r},${c}`));
    for (const tile of play.staged) {
      open.delete(`${tile.row},${tile.col}`);
      for (const [r, c] of [[tile.row - 1, tile.col], [tile.row + 1, tile.col], [tile.row, tile.col - 1],
                            [tile.row, tile.col + 1]]) {
        if (r >= 0 && c >= 0 && r < table().rows && c < table().cols && !table().board[r][c] && !play.at(r, c)) {
          open.add(`${r},${c}`);
        }
      }
    }
    return [...open].map((key) => key.split(",").map(Number));
  }

  function moveWords(move, seats) {
    const who = seatName(move.seat, seats);
    if (move.kind === "pass") return `${who} passed`;
    if (move.kind === "exchange") {
      return move.seat === 0 ? `${who} exchanged ${move.tiles.map(cardText).join(" ")}`
        : `${who} exchanged ${count(move.tiles.length, "tile")}`;
    }
    if (move.kind === "swap_joker") {
      return `${who} gave ${cardText(move.card)} for the joker at ${squareName(move.row, move.col)}`;
    }
    const tiles = move.tiles.map((t) => tileWords(t.as, isJoker(t.card))).join(" ");
    const lines = move.hands.map((h) => `${HANDS[h.category]} ${h.base} × ${h.multiplier} = ${points(h.points)}`);
    return `${who} played ${tiles}: ${lines.join("; ")}`;
  }

  function drawEnd() {
    const end = $(".pt-end");
    end.hidden = !info.complete;
    if (!info.complete) return;
    const t = table();
    const seats = t.scores.length;
    end.innerHTML = "<h2></h2><p class='pt-final'></p><p class='pt-left'></p>"
      + "<p>The margin is your points less the machine's best.</p>"
      + "<ul class='pt-pays' aria-label='Pays'></ul><p class='pt-total'></p>";
    end.querySelector("h2").textContent = view.result_text;
    end.querySelector(".pt-final").textContent = t.scores.map((s, seat) => `${seatName(seat, seats)} ${points(s)}`)
      .join(" · ");
    end.querySelector(".pt-left").textContent = "Tiles left in the racks: " + (t.end_adjustments || [])
      .map((n, seat) => `${seatName(seat, seats)} ${n > 0 ? "+" : ""}${points(n)}`).join(", ");
    end.querySelector(".pt-pays").replaceChildren(...(t.pays || []).map(([words, units]) => {
      const item = document.createElement("li");
      item.textContent = `${words}: ${units} × your bet = ${ctx.money(units * view.bet_credits)}`;
      return item;
    }));
    end.querySelector(".pt-total").textContent = `Paid ${ctx.cents(info.winCents || 0)} `
      + `for a stake of ${ctx.cents(info.stakeCents)}.`;
  }

  function redraw() {
    const t = table();
    const seats = t.scores.length;
    $(".pt-scores").textContent = [
      ...t.scores.map((s, seat) => `${seatName(seat, seats)} ${points(s)}`),
      `Pool ${count(t.pool, "tile")}`, `${count(t.turns_left, "turn")} left`,
      ...t.opponent_tiles.map((n, i) => `${seatName(i + 1, seats)} holds ${count(n, "tile")}`),
    ].join(" · ");
    const marks = { start: new Set(t.start.map(([r, c]) => `${r},${c}`)), centre: `${t.centre[0]},${t.centre[1]}`,
                    cards: new Map(t.card_squares.map(([r, c, card]) => [`${r},${c}`, card])) };
    board.legal(info.complete ? [] : lit());
    board.squares((row, col) => square(row, col, marks));
    const used = new Set(play.staged.map((tile) => tile.slot));
    board.pieces(t.rack.map((card, slot) => ({ id: String(slot), node: cardNode(card), label: `Tile ${cardText(card)}` }))
      .filter((piece) => !used.has(Number(piece.id))));
    const open = !info.complete;
    const joker = declaring();
    $(".pt-declare").hidden = !joker;
    $(".pt-actions").hidden = !open;
    $(".pt-play").disabled = !play.staged.length || Boolean(joker);
    $(".pt-back").disabled = !play.staged.length;
    $(".pt-pass").hidden = t.first_play;
    $(".pt-exchange").hidden = t.first_play || !t.pool;
    $(".pt-swaps").replaceChildren(...t.joker_swaps.map(([row, col, card]) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `SWAP ${cardText(card)} FOR THE JOKER`;
      button.setAttribute("aria-label", `Swap ${cardText(card)} for the joker at ${squareName(row, col)}`);
      button.onclick = () => play.send({ kind: "swap_joker", args: { row, col, card } });
      return button;
    }));
    $(".pt-help").textContent = !open ? "" : t.first_play
      ? "First play: 2 to 5 tiles in a row inside the starting area; a pair or two pair covers the STARTING ZONE "
        + "centre. Drag tiles there, or tap a tile and then a square, then PLAY TILES."
      : "Drag tiles onto the board, or tap a tile and then a square, then PLAY TILES. Tap a tile you placed "
        + "to take it back.";
    $(".pt-moves").replaceChildren(...t.last_moves.map((move) => {
      const item = document.createElement("li");
      item.textContent = moveWords(move, seats);
      return item;
    }));
    drawEnd();
  }

  $(".pt-play").onclick = () => play.send({ kind: "play", args: { tiles: play.staged.map((tile) => ({
    row: tile.row, col: tile.col, card: tile.card, ...(isJoker(tile.card) ? { as: tile.as } : {}) })) } });
  $(".pt-back").onclick = () => {
    play.clear();
    redraw();
  };
  $(".pt-pass").onclick = () => play.send({ kind: "pass" });
  $(".pt-declared").onclick = () => {
    const joker = declaring();
    if (joker) joker.as = $(".pt-rank").value + $(".pt-suit").value;
    redraw();
  };
  $(".pt-exchange").onclick = () => {
    play.clear();
    redraw();
    $(".pt-trade-tiles").replaceChildren(...table().rack.map((card) => {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = card;
      label.append(box, ` ${cardText(card)}`);
      box.setAttribute("aria-label", `Exchange ${cardText(card)}`);
      return label;
    }));
    $(".pt-trade").hidden = false;
  };
  $(".pt-trade-cancel").onclick = () => { $(".pt-trade").hidden = true; };
  $(".pt-trade").onsubmit = (event) => {
    event.preventDefault();
    const tiles = [...root.querySelectorAll(".pt-trade-tiles input:checked")].map((box) => box.value);
    $(".pt-trade").hidden = true;
    play.send({ kind: "exchange", args: { tiles } });
  };

  return {
    update(next, nextInfo) {
      const key = JSON.stringify([next.table, nextInfo.complete]);
      if (key === drawn) return;
      const before = drawn;
      drawn = key;
      view = next;
      info = nextInfo;
      play.clear();
      $(".pt-trade").hidden = true;
      if (!board) build();
      redraw();
      // A turn made from this page: the machine's tiles arrive one by one, in the order it played them.
      if (before) {
        board.reveal(table().last_moves.filter((move) => move.seat !== 0 && move.kind === "play")
          .flatMap((move) => move.tiles.map((tile) => [tile.row, tile.col])));
      }
    },
    destroy() {
      board?.destroy();
      root.innerHTML = "";
    },
  };
}
