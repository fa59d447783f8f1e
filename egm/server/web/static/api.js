// Talking to the game server: JSON over fetch, the CSRF token the page was rendered with, and money
// requests that are sent exactly once. A press makes one request_id; a retry after a lost connection
// re-sends the same body with the same id, so the server applies it once (docs/server.md, "Exactly once").
const csrf = document.querySelector('meta[name="csrf-token"]')?.content || "";
const RETRY_MS = 2000;

// The server refused the request (any HTTP error): `status`, `code` and the server's `sentence`.
export class Refused extends Error {
  constructor(status, reply) {
    super(reply.sentence || `The server refused the request (${status}).`);
    Object.assign(this, { status, code: reply.code || "", reply });
  }
}

export function requestId(prefix) {
  return `${prefix}-${crypto.randomUUID()}`;
}

export async function call(method, path, body) {
  const response = await fetch(path, {
    method, credentials: "same-origin",
    headers: { ...(method === "GET" ? {} : { "X-CSRF-Token": csrf }),
               ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const reply = await response.json().catch(() => ({}));
  if (!response.ok) throw new Refused(response.status, reply);
  return reply;
}

// POST until the server answers. `offline(true)` while the request is NOT SENT, `offline(false)` once
// an answer (of any status) arrived. A Refused answer is thrown: the server decided, so no retry.
export async function send(path, body, offline = () => {}) {
  for (;;) {
    try {
      const reply = await call("POST", path, body);
      offline(false);
      return reply;
    } catch (error) {
      if (error instanceof Refused) {
        offline(false);
        throw error;
      }
      offline(true);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

const DOLLARS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

export function money(cents) {
  return DOLLARS.format(cents / 100);
}

// The session's net position: "+$1.20", "-$0.50", "$0.00".
export function signedMoney(cents) {
  return (cents > 0 ? "+" : "") + money(cents);
}

// Dollars as a player types them ("25", "25.5", "1,000.00") -> cents, or null when it is no amount.
export function centsOf(text) {
  const typed = String(text).trim().replaceAll(",", "").replace(/^\$/, "");
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(typed)) return null;
  const [whole, part = ""] = typed.split(".");
  return Number(whole) * 100 + Number(part.padEnd(2, "0"));
}
