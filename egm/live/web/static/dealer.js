// The dealer's keypad. A press sets a row's winner; ENTER lights only when all three are set; UNDO
// clears the last press. The server derives the code. Every entry carries a request_id made once, at
// ENTER, and reused until the server has saved it: offline, the pad says NOT SAVED and keeps retrying.
const root = document.getElementById("keypad");
const table = root.dataset.table;
const PARTS = ["front", "middle", "back"];
const PENDING = `live-pending-${table}`;
const status = document.getElementById("status");
const enter = document.getElementById("enter");
let presses = [];  // [part, side] in the order pressed
let csrf = sessionStorage.getItem("csrf") || "";

function chosen() {
  const rows = {};
  for (const [part, side] of presses) rows[part] = side;
  return rows;
}

function draw() {
  const rows = chosen();
  for (const button of document.querySelectorAll(".setrow button")) {
    button.setAttribute("aria-pressed", String(rows[button.dataset.part] === button.dataset.side));
  }
  enter.disabled = PARTS.some((part) => !rows[part]) || localStorage.getItem(PENDING) !== null;
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(body),
  });
  const reply = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(reply.sentence || `refused (${response.status})`),
                                        { status: response.status });
  return reply;
}

function say(text, unsaved = false) {
  status.textContent = text;
  status.classList.toggle("unsaved", unsaved);
}

async function save() {
  const pending = JSON.parse(localStorage.getItem(PENDING) || "null");
  if (!pending) return;
  try {
    const reply = await post(`/live/tables/${table}/hands`, pending);
    localStorage.removeItem(PENDING);
    say(`Saved: hand ${reply.hand_id}, ${reply.code}.`);
    await refresh();
  } catch (error) {
    if (error.status) {  // the server refused it: nothing was saved, and a retry would be refused too
      localStorage.removeItem(PENDING);
      say(error.message, true);
    } else {
      say("NOT SAVED: no connection to the game server. The entry is kept and sent again.", true);
      setTimeout(save, 3000);
    }
  }
  draw();
}

function pip(code) {
  const el = document.createElement("span");
  el.className = `pip ${code}`;
  el.textContent = code;
  return el;
}

async function refresh() {
  const response = await fetch(`/live/tables/${table}/board`, { credentials: "same-origin" });
  if (response.status === 401) return showLogin();
  if (!response.ok) return;
  const board = await response.json();
  document.getElementById("recent").replaceChildren(...board.rows.slice().reverse().map((hand) => {
    const tr = document.createElement("tr");
    const cells = [`Hand ${hand.hand_id}`, ...PARTS.map((p) => pip(hand[p])), hand.code,
                   hand.corrected ? "corrected" : ""];
    for (const content of cells) {
      const td = document.createElement("td");
      td.append(content);
      tr.append(td);
    }
    const fix = document.createElement("button");
    fix.textContent = "CORRECT";
    fix.setAttribute("aria-label", `Correct hand ${hand.hand_id}`);
    fix.onclick = () => correct(hand);
    const voiding = document.createElement("button");
    voiding.textContent = "VOID";
    voiding.setAttribute("aria-label", `Void hand ${hand.hand_id}`);
    voiding.onclick = () => voidHand(hand);
    const td = document.createElement("td");
    td.append(fix, voiding);
    tr.append(td);
    return tr;
  }));
}

function correct(hand) {
  const dialog = document.getElementById("correct");
  const form = document.getElementById("correct-form");
  document.getElementById("correct-title").textContent = `Hand ${hand.hand_id}: ${hand.code}`;
  for (const part of PARTS) form.elements[part].value = hand[part];
  form.elements.reason.value = "";
  form.elements.supervisor_pin.value = "";
  document.getElementById("correct-status").textContent = "";
  const requestId = crypto.randomUUID();
  document.getElementById("correct-ok").onclick = async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const body = { request_id: requestId, reason: form.elements.reason.value,
                   supervisor_pin: form.elements.supervisor_pin.value };
    for (const part of PARTS) body[part] = form.elements[part].value;
    try {
      const reply = await post(`/live/tables/${table}/hands/${hand.hand_id}/corrections`, body);
      dialog.close();
      say(`Corrected: hand ${hand.hand_id} is now ${reply.code}.`);
      await refresh();
    } catch (error) {
      document.getElementById("correct-status").textContent = error.message;
    }
  };
  dialog.showModal();
}

async function voidHand(hand) {
  if (!confirm(`Void hand ${hand.hand_id} (${hand.code}) as a misdeal?`)) return;
  try {
    await post(`/live/tables/${table}/hands/${hand.hand_id}/void`, { request_id: crypto.randomUUID() });
    say(`Hand ${hand.hand_id} voided.`);
    await refresh();
  } catch (error) {
    say(error.message, !error.status);
  }
}

function showLogin() {
  document.getElementById("pad").hidden = true;
  document.getElementById("login").hidden = false;
}

document.getElementById("login").onsubmit = async (event) => {
  event.preventDefault();
  const form = event.target;
  try {
    const reply = await post("/api/v1/auth/login", { login: form.elements.login.value,
                                                     password: form.elements.password.value });
    csrf = reply.csrf_token;
    sessionStorage.setItem("csrf", csrf);
    form.hidden = true;
    document.getElementById("pad").hidden = false;
    await refresh();
  } catch (error) {
    say(error.message, true);
  }
};

for (const button of document.querySelectorAll(".setrow button")) {
  button.onclick = () => {
    const rows = chosen();
    if (PARTS.every((part) => rows[part])) {
      return say("All three are set: press ENTER, or UNDO to change the last one.", true);
    }
    if (rows[button.dataset.part]) {
      return say(`${button.dataset.part.toUpperCase()} is already ${rows[button.dataset.part]}: ` +
                 "UNDO to change it.", true);
    }
    presses.push([button.dataset.part, button.dataset.side]);
    say("");
    draw();
  };
}
document.getElementById("undo").onclick = () => { presses.pop(); draw(); };
enter.onclick = () => {
  const rows = chosen();
  localStorage.setItem(PENDING, JSON.stringify({ request_id: crypto.randomUUID(), ...rows }));
  presses = [];
  say("Saving...");
  save();
};
document.getElementById("new-session").onclick = async () => {
  if (!confirm("Start a new session? The board starts empty, like a new shoe.")) return;
  try {
    await post(`/live/tables/${table}/sessions`, { request_id: crypto.randomUUID() });
    say("New session: the board is empty.");
    await refresh();
  } catch (error) {
    say(error.message, !error.status);
  }
};

if (csrf) {
  document.getElementById("pad").hidden = false;
  refresh().then(save);
} else {
  showLogin();
}
draw();
