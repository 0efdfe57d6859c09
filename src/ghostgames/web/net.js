// The one WebSocket to the server (docs/protocol.md): the saved token goes in the first message (hello),
// never in the URL, which servers and proxies log; requests are matched to their answers by id, and the
// socket reconnects by itself with a growing pause. After each (re)connect the pages re-subscribe
// through onOpen, so a page that lost its socket comes back to the same state.

const TOKEN_KEY = "ghostgames.token";
const NAME_KEY = "ghostgames.name";

export const session = {
  get token() {
    return localStorage.getItem(TOKEN_KEY);
  },
  get name() {
    return localStorage.getItem(NAME_KEY);
  },
  save(token, name) {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
    if (name) localStorage.setItem(NAME_KEY, name);
    else localStorage.removeItem(NAME_KEY);
  },
};

/** An HTTP JSON call under /api; throws the server's error body ({code, message, args}) on failure. */
export async function api(path, { method = "GET", body } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  const response = await fetch(`/api${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw { code: data.code || "internal_error", message: data.message || "", args: data.args || {} };
  return data;
}

export class Connection {
  constructor() {
    this.handlers = {};
    this.openers = [];
    this.statusListeners = [];
    this.pending = new Map();
    this.outbox = []; // messages given before the server said welcome: sent right after it
    this.nextId = 1;
    this.delay = 500;
    this.socket = null;
    this.ready = false;
    this.user = null;
    this.closedOnPurpose = false;
  }

  on(type, handler) {
    (this.handlers[type] ||= []).push(handler);
  }

  /** Called after every welcome: subscribe again to what the page shows. */
  onOpen(handler) {
    this.openers.push(handler);
    if (this.ready) handler(this);
  }

  onStatus(listener) {
    this.statusListeners.push(listener);
  }

  setStatus(status) {
    for (const listener of this.statusListeners) listener(status);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws`);
    this.socket = socket;
    this.setStatus("connecting");
    socket.addEventListener("open", () => {
      this.delay = 500;
      // batch: the server may send several messages in one frame, as a JSON array (a move's table, log and ack)
      socket.send(JSON.stringify(session.token ? { type: "hello", token: session.token, batch: true }
        : { type: "hello", batch: true }));
    });
    socket.addEventListener("message", (event) => {
      // A socket replaced by restart() may still deliver its last words; they no longer count.
      if (this.socket === socket) this.receive(event.data);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.ready = false;
      // A request already sent may or may not have been carried out: say so. One still in the outbox
      // was never sent; it waits for the next welcome.
      const waiting = new Set(this.outbox.map((message) => message.id));
      for (const [id, pending] of this.pending) {
        if (waiting.has(id)) continue;
        pending.reject({ code: "disconnected", args: {} });
        this.pending.delete(id);
      }
      if (this.closedOnPurpose) return;
      this.setStatus("reconnecting");
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    });
  }

  /** Close and open again, e.g. after logging in, so hello carries the new token. */
  restart() {
    const old = this.socket;
    this.socket = null;
    this.ready = false;
    old?.close();
    this.connect();
  }

  receive(raw) {
    let data;
    try {
      data = JSON.parse(raw);
    } catch {
      return;
    }
    for (const message of Array.isArray(data) ? data : [data]) this.take(message);
  }

  /** One message from the server, in the order sent. */
  take(message) {
    if (message.type === "welcome") {
      this.user = message.user;
      if (message.token) session.save(message.token, message.user?.name);
      this.ready = true;
      this.setStatus("online");
      for (const opener of this.openers) opener(this);
      for (const waiting of this.outbox.splice(0)) this.send(waiting);
    }
    if (message.type === "error" && message.code === "bad_token") {
      // Refused at hello, or a session that ended while open (its lifetime is over, or the name logged out
      // elsewhere): the token is dead. An open session reconnects as nobody, so the page shows it.
      const wasSignedIn = this.ready && this.user;
      session.save(null, null);
      if (wasSignedIn) this.restart();
    }
    if (message.id && this.pending.has(message.id)) {
      const { resolve, reject } = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.type === "error") reject(message);
      else resolve(message);
    }
    for (const handler of this.handlers[message.type] || []) handler(message);
    for (const handler of this.handlers["*"] || []) handler(message);
  }

  /** Send now if the server has welcomed us; otherwise keep it for the welcome, so that a command typed
   * while the page is still connecting (or reconnecting) is not dropped. */
  send(message) {
    if (this.ready && this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    else this.outbox.push(message);
  }

  /** Send with an id; resolves with the ack/reply, rejects with the error (also shown by the error handler). */
  request(message) {
    const id = `m${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ ...message, id });
    });
  }
}
