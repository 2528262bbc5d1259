// Bridge: version, broker, each integration's status and figures, health and the log level.
import { attempt, h } from './ui.js';

const LEVELS = ['trace', 'debug', 'info', 'notice', 'warning', 'error', 'critical'];

export class BridgeView {
  constructor(connection) { this.connection = connection; }

  mount(root) {
    this.summary = h('div', { class: 'grid2', id: 'bridge-summary' });
    this.integrations = h('div', { id: 'bridge-integrations' });
    this.cluster = h('div', { id: 'bridge-cluster' });
    this.health = h('pre', { id: 'bridge-health', class: 'muted' }, 'Not asked yet.');
    this.level = h('select', { id: 'log-level', 'aria-label': 'Log level', onchange: () => this.setLevel() }, ...LEVELS.map((level) => h('option', { value: level }, level)));
    root.append(
      h('h1', {}, 'Bridge'),
      h('div', { class: 'card' }, this.summary),
      h('div', { class: 'card' }, h('h2', {}, 'Integrations'), this.integrations),
      this.cluster,
      h('div', { class: 'card' }, h('h2', {}, 'Log level'), this.level),
      h('div', { class: 'card' }, h('h2', {}, 'Health'),
        h('button', { type: 'button', id: 'health-check', onclick: () => this.check() }, 'Check now'), this.health));
    this.update();
  }

  setLevel() {
    attempt(() => this.connection.request('options', { options: { log_level: this.level.value } }), `Log level ${this.level.value}`);
  }

  check() {
    attempt(() => this.connection.request('health_check')).then((data) => { if (data) this.health.textContent = JSON.stringify(data, null, 2); });
  }

  update() {
    const info = this.connection.info || {};
    const state = this.connection.retained.get('bridge/state')?.state || 'unknown';
    const rows = [
      ['Version', info.version], ['Bridge', state], ['Broker', info.config?.mqtt?.server], ['Base topic', info.base_topic],
      ['Home Assistant', info.homeassistant ? (info.homeassistant.enabled ? `discovery under ${info.homeassistant.discovery_prefix}` : 'off') : undefined],
      ['Restart needed', info.restart_required ? `yes: ${(info.restart_required_for || []).join(', ')}` : 'no'],
    ];
    this.summary.replaceChildren(...rows.flatMap(([key, value]) => [h('span', { class: 'muted' }, key), h('span', {}, value ?? '—')]));
    if (document.activeElement !== this.level && info.log_level) this.level.value = info.log_level;
    this.cluster.replaceChildren(...(info.cluster ? [this.clusterCard(info.cluster)] : []));
    const integrations = Object.entries(info.integrations || {});
    this.integrations.replaceChildren(...integrations.map(([name, entry]) => h('div', { class: 'card', 'data-integration': name },
      h('h2', {}, name.toUpperCase(), ' ', h('span', { class: `pill ${entry.status === 'running' ? 'online' : entry.status === 'disabled' ? 'unknown' : 'offline'}` }, entry.status)),
      h('div', { class: 'grid2' }, ...Object.entries(entry).filter(([key]) => key !== 'status').flatMap(([key, value]) =>
        [h('span', { class: 'muted' }, key.replaceAll('_', ' ')), h('span', {}, value === null ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value))])))));
  }

  // Several bridges of one home: this bridge's id and devices, and every bridge it knows with its room, radios and slots.
  clusterCard(cluster) {
    const bridges = Object.entries(cluster.bridges || {}).sort(([a], [b]) => a.localeCompare(b));
    return h('div', { class: 'card' }, h('h2', {}, 'Cluster'),
      h('div', { class: 'grid2' },
        h('span', { class: 'muted' }, 'This bridge'), h('span', {}, cluster.bridge_id),
        h('span', { class: 'muted' }, 'Devices it owns'), h('span', {}, String(cluster.owned_devices ?? 0))),
      h('table', { class: 'cluster-bridges' },
        h('tr', {}, ...['Bridge', 'State', 'Room', 'Adapters', 'Free slots'].map((title) => h('th', {}, title))),
        ...bridges.map(([id, presence]) => h('tr', { 'data-bridge': id },
          h('td', {}, id === cluster.bridge_id ? `${id} (this one)` : id),
          h('td', {}, h('span', { class: `pill ${presence.state === 'online' ? 'online' : 'offline'}` }, presence.state || 'unknown')),
          h('td', {}, presence.room || '—'),
          h('td', {}, Array.isArray(presence.adapters) && presence.adapters.length ? presence.adapters.join(', ') : '—'),
          h('td', {}, presence.slots === undefined || presence.slots === null ? '—' : String(presence.slots))))));
  }
}
