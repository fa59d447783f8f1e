// Setting the player's 13 cards into the front (3), the middle (5) and the back (5): tap a card then a
// row, or drag a card onto a row with the finger or the mouse (Pointer Events with pointer capture; not
// HTML5 drag and drop). A card dropped anywhere else snaps back. When two rows are full the third takes
// the cards left. SET HAND sends {"kind": "set", "args": {"front": [...], "middle": [...]}}; a setting
// the game refuses (a foul) is said by the shell and the last card placed snaps back to the hand.
import { cardNode, cardText } from "/static/web/cards.js";
import { SLOP, h, onPress } from "./dom.js";

const ROWS = ["front", "middle", "back"];
const SIZE = { front: 3, middle: 5, back: 5 };
const SNAP_MS = 220;

// Each card keeps its index in the hand (the two jokers are both "JK").
export function mountSetting(stage, codes, ctx) {
  const rowOf = codes.map(() => null);  // index -> "front" | "middle" | "back" | null (in the hand)
  const filled = new Set();  // indexes the last row took by itself
  let selected = null;
  let lastMoved = null;

  const slots = {};
  const zones = {};
  for (const row of ROWS) {
    const put = h("button", { type: "button", class: "dp-put", "aria-label": `${row[0].toUpperCase()}${row.slice(1)} row` },
                  `${row.toUpperCase()} · ${SIZE[row]}`);
    onPress(put, () => tapZone(row));
    slots[row] = h("div", { class: "dp-slots" });
    zones[row] = h("div", { class: "dp-zone", "data-row": row, role: "group",
                            "aria-label": `${row} (${SIZE[row]} cards)` }, put, slots[row]);
    onPress(zones[row], () => tapZone(row), (event) => [zones[row], slots[row]].includes(event.target));
  }
  const trayCards = h("div", { class: "dp-slots" });
  const tray = h("div", { class: "dp-zone dp-tray", "data-row": "hand", role: "group", "aria-label": "Your cards" },
                 trayCards);
  onPress(tray, () => tapZone(null), (event) => [tray, trayCards].includes(event.target));
  const setButton = h("button", { type: "button", class: "dp-go" }, "SET HAND");
  onPress(setButton, send);
  const clear = h("button", { type: "button", class: "dp-plain" }, "CLEAR");
  onPress(clear, () => {
    if (ctx.busy()) return;
    rowOf.fill(null);
    filled.clear();
    selected = null;
    moveAnimated(render);
  });
  const ask = h("p", { class: "dp-ask" });
  const buttons = codes.map((code, index) => {
    const button = h("button", { type: "button", class: "dp-card", "aria-label": cardText(code),
                                 "aria-pressed": "false", "data-card": code }, cardNode(code));
    onPress(button, () => tapCard(index));
    button.addEventListener("pointerdown", (event) => drag(index, event));
    return button;
  });
  stage.replaceChildren(h("h2", { class: "dp-step" }, "Set your hand"), ask,
                        h("div", { class: "dp-rows" }, ...ROWS.map((row) => zones[row])), tray,
                        h("div", { class: "dp-actions" }, setButton, clear));
  render();

  function count(row) { return rowOf.filter((r) => r === row).length; }

  function render() {
    for (const row of ROWS) {
      slots[row].replaceChildren(...buttons.filter((_, i) => rowOf[i] === row));
      zones[row].classList.toggle("dp-full", count(row) === SIZE[row]);
    }
    trayCards.replaceChildren(...buttons.filter((_, i) => rowOf[i] === null));
    buttons.forEach((button, i) => button.setAttribute("aria-pressed", String(i === selected)));
    const left = count(null);
    setButton.disabled = left > 0;
    ask.textContent = selected !== null ? `${cardText(codes[selected])}: now tap a row.`
      : left ? "Tap a card, then a row, or drag it there; tap a card in a row to take it back. "
               + "The back must beat the middle, the middle the front."
      : "Press SET HAND, or CLEAR to start again.";
  }

  // When two rows are full, the third takes the cards left (they can have no other place).
  function fillLast() {
    const open = ROWS.filter((row) => count(row) < SIZE[row]);
    const left = rowOf.filter((r) => r === null).length;
    if (open.length === 1 && left === SIZE[open[0]] - count(open[0])) {
      rowOf.forEach((r, i) => { if (r === null) { rowOf[i] = open[0]; filled.add(i); } });
    }
  }

  function place(index, row) {
    if (row !== null && rowOf[index] !== row && count(row) >= SIZE[row]) {
      ctx.say(`The ${row} holds ${SIZE[row]} cards: take one out first.`);
      return false;
    }
    for (const i of filled) rowOf[i] = null;  // a move undoes the automatic fill, then it is redone
    filled.clear();
    rowOf[index] = row;
    lastMoved = row === null ? null : index;
    selected = null;
    fillLast();
    ctx.say("");
    return true;
  }

  // A tap on a card: select it; on the selected card: unselect it; on a card in a row while another is
  // selected: that row; on a card in a row otherwise: take it back to the hand (as on the cabinet).
  function tapCard(index) {
    if (ctx.busy()) return;
    if (selected !== null && selected !== index && rowOf[index] !== null) {
      tapZone(rowOf[index]);
    } else if (selected === null && rowOf[index] !== null) {
      place(index, null);
      moveAnimated(render);
    } else {
      selected = selected === index ? null : index;
      render();
    }
  }

  function tapZone(row) {
    if (selected === null || ctx.busy()) return;
    const index = selected;
    if (!place(index, row)) return;
    moveAnimated(render);
  }

  // FLIP: the cards glide from where they were to where the new drawing puts them.
  function moveAnimated(draw) {
    const before = buttons.map((b) => b.getBoundingClientRect());
    draw();
    if (ctx.reducedMotion) return;
    buttons.forEach((button, i) => {
      const after = button.getBoundingClientRect();
      const dx = before[i].left - after.left;
      const dy = before[i].top - after.top;
      if (!dx && !dy) return;
      button.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
                     { duration: SNAP_MS, easing: "ease-out" });
    });
  }

  function zoneAt(x, y, dragged) {
    for (const node of document.elementsFromPoint(x, y)) {
      if (dragged.contains(node)) continue;
      const zone = node.closest("[data-row]");
      if (zone && stage.contains(zone)) return zone;
    }
    return null;
  }

  function drag(index, down) {
    if (ctx.busy() || (down.pointerType === "mouse" && down.button !== 0)) return;
    const button = buttons[index];
    const x0 = down.clientX;
    const y0 = down.clientY;
    let moving = false;
    let over = null;
    button.setPointerCapture(down.pointerId);
    const move = (event) => {
      const dx = event.clientX - x0;
      const dy = event.clientY - y0;
      if (!moving && Math.hypot(dx, dy) < SLOP) return;
      moving = true;
      button.classList.add("dp-dragging");
      button.style.transform = `translate(${dx}px, ${dy}px)`;
      const zone = zoneAt(event.clientX, event.clientY, button);
      if (zone !== over) {
        over?.classList.remove("dp-over");
        zone?.classList.add("dp-over");
        over = zone;
      }
    };
    const end = (event) => {
      button.removeEventListener("pointermove", move);
      button.removeEventListener("pointerup", end);
      button.removeEventListener("pointercancel", end);
      if (button.hasPointerCapture(down.pointerId)) button.releasePointerCapture(down.pointerId);
      over?.classList.remove("dp-over");
      if (!moving) return;  // a tap: onPress does it
      button.classList.remove("dp-dragging");
      const zone = event.type === "pointerup" ? zoneAt(event.clientX, event.clientY, button) : null;
      const row = zone?.dataset.row;
      const moved = row !== undefined && place(index, row === "hand" ? null : row);
      const offset = button.style.transform;
      button.style.transform = "";
      if (moved) {
        render();
      } else if (!ctx.reducedMotion) {  // snap back to where it was
        button.animate([{ transform: offset }, { transform: "none" }], { duration: SNAP_MS, easing: "ease-out" });
      }
    };
    button.addEventListener("pointermove", move);
    button.addEventListener("pointerup", end);
    button.addEventListener("pointercancel", end);
  }

  function send() {
    if (ctx.busy() || count(null) > 0) return;
    const args = { front: [], middle: [] };
    rowOf.forEach((row, i) => { if (row in args) args[row].push(codes[i]); });
    ctx.decide({ kind: "set", args }).catch(() => {
      // Refused (a foul): the shell said the game's sentence; the last card placed, and any the last
      // row took by itself, go back to the hand.
      for (const i of filled) rowOf[i] = null;
      filled.clear();
      if (lastMoved !== null) rowOf[lastMoved] = null;
      lastMoved = null;
      moveAnimated(render);
    });
  }

}
