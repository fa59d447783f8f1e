// The live table's scoreboard display: the whole board arrives over the table's websocket on connect
// and after every change, so a lost message heals at the next. After 45 s without a message (the
// server sends a heartbeat every 15 s) the display says OFFLINE and reconnects.
const SILENCE_MS = 45000;
const NAMES = { P: "Player", H: "House", D: "Dragon", S: "Split" };
const root = document.getElementById("display");
const offline = document.getElementById("offline");
let socket = null;
let watchdog = null;

function pip(side, label, text = side) {
  const el = document.createElement("span");
  el.className = `pip ${side}`;
  el.textContent = text;
  el.setAttribute("aria-label", label || NAMES[side]);
  return el;
}

function grid(el, cells, depth, columns, draw) {
  el.replaceChildren();
  el.style.gridTemplateRows = `repeat(${depth}, auto)`;
  el.style.gridTemplateColumns = `repeat(${columns}, auto)`;
  el.style.gridAutoFlow = "column";
  const at = new Map(cells.map((c) => [`${c.column},${c.row}`, c]));
  for (let column = 0; column < columns; column++) {
    for (let row = 0; row < depth; row++) {
      const cell = document.createElement("div");
      cell.className = "cell";
      const found = at.get(`${column},${row}`);
      if (found) draw(cell, found);
      el.append(cell);
    }
  }
}

function render(board) {
  const rows = document.getElementById("rows");
  rows.replaceChildren(...board.rows.map((hand) => {
    const tr = document.createElement("tr");
    tr.dataset.hand = hand.hand_id;
    if (hand.corrected) tr.className = "corrected";
    for (const part of ["front", "middle", "back"]) {
      const td = document.createElement("td");
      td.append(pip(hand[part], `${part}: ${NAMES[hand[part]]}`));
      tr.append(td);
    }
    const code = document.createElement("td");
    code.className = "code";
    code.textContent = hand.code;
    if (hand.corrected) {
      const mark = document.createElement("span");
      mark.className = "mark";
      mark.textContent = "CORRECTED";
      code.append(mark);
    }
    tr.append(code);
    return tr;
  }));
  grid(document.getElementById("bead"), board.bead_plate, board.depth, 12, (cell, c) => {
    cell.append(pip(c.code[0], `${NAMES[c.code[0]]} ${c.code}`, c.code));
  });
  grid(document.getElementById("road"), board.big_road, board.depth, 24, (cell, c) => {
    const ring = document.createElement("span");
    ring.className = `ring ${c.side}`;
    ring.setAttribute("aria-label", `${NAMES[c.side]} ${c.code}${c.splits ? `, ${c.splits} split` : ""}`);
    cell.append(ring);
    if (c.splits) {  // a split is drawn as baccarat draws a tie: a slash on the hand before it
      const slash = document.createElement("span");
      slash.className = "slash";
      cell.append(slash);
      if (c.splits > 1) {
        const count = document.createElement("span");
        count.className = "count";
        count.textContent = c.splits;
        cell.append(count);
      }
    }
  });
  const totals = document.getElementById("totals");
  totals.replaceChildren(...["P", "H", "D", "S"].map((side) => {
    const item = document.createElement("span");
    item.dataset.side = side;
    item.append(pip(side), `${board.totals[side]}`);
    item.setAttribute("aria-label", `${NAMES[side]}: ${board.totals[side]}`);
    return item;
  }));
  root.dataset.rows = board.rows.length;
}

function heard() {
  offline.hidden = true;
  clearTimeout(watchdog);
  watchdog = setTimeout(lost, SILENCE_MS);
}

function lost() {
  offline.hidden = false;
  if (socket) socket.close();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const url = `${scheme}://${location.host}/live/tables/${root.dataset.table}/ws?token=${encodeURIComponent(root.dataset.token)}`;
  socket = new WebSocket(url);
  socket.onmessage = (event) => {
    heard();
    const message = JSON.parse(event.data);
    if (message.type === "board") render(message.board);
  };
  socket.onclose = () => {
    offline.hidden = false;
    socket = null;
    setTimeout(connect, 2000);
  };
}

watchdog = setTimeout(lost, SILENCE_MS);
connect();
