// The page's only link to the bridge: the `api` websocket, which speaks the MQTT API with topics relative to
// the base topic. Retained topics are kept here by topic; requests carry a transaction and wait for it.

const TOKEN_KEY = 't2m.token';
const REQUEST_TIMEOUT = 20000;

export class Connection extends EventTarget {
  constructor() {
    super();
    this.retained = new Map();
    this.updated = new Map();
    this.pending = new Map();
    this.transaction = 0;
    this.attempt = 0;
    this.socket = null;
    this.status = 'connecting';
  }

  get token() { return localStorage.getItem(TOKEN_KEY) || ''; }
  set token(value) { if (value) localStorage.setItem(TOKEN_KEY, value); else localStorage.removeItem(TOKEN_KEY); }

  connect() {
    // Relative to the page, so any prefix (a proxy, Home Assistant's ingress) is kept.
    const url = new URL('api', document.baseURI);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      // Always first, also when the bridge asks for no token: it is never put in the URL, where proxies log it.
      socket.send(JSON.stringify({ auth: this.token }));
      this.retained.clear();
      this.attempt = 0;
      this.setStatus('open');
    };
    socket.onmessage = (event) => {
      let frame;
      try { frame = JSON.parse(event.data); } catch { return; }
      this.receive(frame);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      for (const { reject, timer } of this.pending.values()) { clearTimeout(timer); reject(new Error('connection lost')); }
      this.pending.clear();
      if (event.code === 4401) { this.setStatus('unauthorized'); return; }
      this.setStatus('closed');
      const delay = Math.min(15000, 500 * 2 ** this.attempt++);
      setTimeout(() => { if (!this.socket) this.connect(); }, delay);
    };
  }

  /// Closes and connects again (after a new token, or to log out).
  reconnect() {
    const old = this.socket;
    this.socket = null;
    if (old) old.close();
    this.connect();
  }

  setStatus(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent('status', { detail: status }));
  }

  receive(frame) {
    if (frame.error) {
      this.dispatchEvent(new CustomEvent('failure', { detail: frame.error }));
      return;
    }
    const { topic, payload } = frame;
    if (typeof topic !== 'string') return;
    if (topic.startsWith('bridge/response/')) {
      const waiting = payload && this.pending.get(String(payload.transaction));
      if (waiting) {
        this.pending.delete(String(payload.transaction));
        clearTimeout(waiting.timer);
        if (payload.status === 'ok') waiting.resolve(payload.data); else waiting.reject(new Error(payload.error || 'failed'));
      }
      return;
    }
    if (topic === 'bridge/logging') {
      this.dispatchEvent(new CustomEvent('log', { detail: { ...payload, time: Date.now() } }));
      return;
    }
    if (topic === 'bridge/event' || topic.endsWith('/event')) {
      this.dispatchEvent(new CustomEvent('event', { detail: { topic, payload, at: Date.now() } }));
      return;
    }
    if (payload === '') this.retained.delete(topic); else this.retained.set(topic, payload);
    this.updated.set(topic, Date.now());
    this.dispatchEvent(new CustomEvent('message', { detail: { topic, payload } }));
  }

  /// Sends a message exactly as it would be published on MQTT under the base topic.
  publish(topic, payload) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) throw new Error('not connected');
    this.socket.send(JSON.stringify({ topic, payload }));
  }

  /// `bridge/request/<name>`; resolves with the response's data or rejects with its error.
  request(name, payload = {}) {
    const transaction = `p${Date.now().toString(36)}-${++this.transaction}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new Error(`no answer to ${name} within 20 s`));
      }, REQUEST_TIMEOUT);
      this.pending.set(transaction, { resolve, reject, timer });
      try {
        this.publish(`bridge/request/${name}`, { ...payload, transaction });
      } catch (error) {
        clearTimeout(timer);
        this.pending.delete(transaction);
        reject(error);
      }
    });
  }

  /// A GET of one of the daemon's files, relative to the page, with the token the websocket takes.
  fetch(name) {
    return fetch(new URL(name, document.baseURI), { headers: this.token ? { Authorization: `Bearer ${this.token}` } : {}, cache: 'no-store' });
  }

  get devices() { return Array.isArray(this.retained.get('bridge/devices')) ? this.retained.get('bridge/devices') : []; }
  get info() { return this.retained.get('bridge/info') || null; }
  device(id) { return this.devices.find((device) => device.id === id) || null; }
  state(device) { return this.retained.get(device.alias) || {}; }
  availability(device) { return this.retained.get(`${device.alias}/availability`)?.state || device.status || 'unknown'; }
  lastUpdate(device) { return this.updated.get(device.alias) || null; }
}
