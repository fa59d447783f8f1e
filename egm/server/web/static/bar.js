// The bar on every page of a logged-in player: the clock, the balance and the session's net position
// (always on screen, as responsible-gaming rules require), the connection, the reality-check dialog and
// LOG OUT. It holds the websocket /ws: pushes update the bar at once; a lost socket shows OFFLINE and
// reconnects, and the server's hello on the new socket is a snapshot that heals everything
// (correctness never depends on a push: docs/server.md, "Events").
//
// Other scripts listen for `egm:snapshot` (detail: what GET /api/v1/session gives) on document.
import { call, money, signedMoney } from "./api.js";

const el = (id) => document.getElementById(id);
const link = { socketUp: true, notSent: false };
let socket = null;
let lastSeq = null;
let retryMs = 500;
let ending = false;  // the player ends the session here (a break): its end is no surprise

export function endingSession() {
  ending = true;
}

function tick() {
  el("clock").textContent = new Date().toLocaleTimeString("en-GB");
}

export function showBalance(cents) {
  if (typeof cents === "number") el("balance").textContent = money(cents);
}

function showNet(cents) {
  if (typeof cents === "number") el("net").textContent = signedMoney(cents);
}

function drawLink() {
  const text = link.notSent ? "NOT SENT: no connection. Retrying…" : link.socketUp ? "" : "OFFLINE";
  el("link").textContent = text;
  el("link").classList.toggle("offline", Boolean(text));
}

// A request of this page could not reach the server (the shell retries it with the same id).
export function showNotSent(notSent) {
  link.notSent = notSent;
  drawLink();
}

// The reality-check dialog: the server's sentence; PLAY ON acknowledges it.
export function showRealityCheck(sentence) {
  el("reality-text").textContent = sentence;
  if (!el("reality").open) el("reality").showModal();
}

function realityWords(check) {
  const minutes = Math.floor(check.elapsed_s / 60);
  const net = check.net_cents;
  const position = net < 0 ? `are down ${money(-net)}` : net > 0 ? `are up ${money(net)}` : "are even";
  return `Reality check: you have played for ${Math.floor(minutes / 60)} h ${minutes % 60} min this session `
    + `and ${position}.`;
}

async function acknowledge() {
  try {
    await call("POST", "/api/v1/reality-check/ack");
  } catch (error) {
    if (error.status !== 409) {  // 409: nothing is due any more (acknowledged in another tab)
      el("reality-text").textContent = error.message;
      return;
    }
  }
  el("reality").close();
  resume();
}

function applySnapshot(snapshot) {
  showBalance(snapshot.balance_cents);
  showNet(snapshot.limits?.reality_check?.net_cents);
  if (snapshot.reality_check_due) showRealityCheck(realityWords(snapshot.limits.reality_check));
  document.dispatchEvent(new CustomEvent("egm:snapshot", { detail: snapshot }));
}

function resume() {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "resume", last_seq: lastSeq }));
}

function received(message) {
  const gap = typeof message.seq === "number" && lastSeq !== null && message.seq > lastSeq + 1;
  if (typeof message.seq === "number") lastSeq = Math.max(lastSeq ?? 0, message.seq);
  switch (message.type) {
    case "hello":
    case "snapshot":
      applySnapshot(message);
      return;
    case "balance":
      showBalance(message.balance_cents);
      document.body.dispatchEvent(new Event("egm-money"));  // htmx: the transactions redraw
      break;
    case "round":
      showBalance(message.balance_cents);
      resume();  // the net position and the round come with the snapshot
      return;
    case "reality_check":
      if (message.due) showRealityCheck(realityWords(message));
      break;
    case "session_ended":
      if (ending) return;
      location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
      return;
    default:
      return;
  }
  if (gap) resume();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.onopen = () => {
    retryMs = 500;
    link.socketUp = true;
    drawLink();
  };
  socket.onmessage = (event) => received(JSON.parse(event.data));
  socket.onclose = () => {
    if (ending) return;
    link.socketUp = false;
    drawLink();
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 5000);
  };
}

async function logout() {
  await call("POST", "/api/v1/auth/logout").catch(() => {});
  location.assign("/");
}

tick();
setInterval(tick, 1000);
el("reality-ack").onclick = acknowledge;
el("logout").onclick = logout;
connect();
