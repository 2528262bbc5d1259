// Bridge: version, broker, each integration's status and figures, health and the log level.
import { attempt, h } from './ui.js';

const LEVELS = ['trace', 'debug', 'info', 'notice', 'warning', 'error', 'critical'];

export class BridgeView {
  constructor(connection) { this.connection = connection; }

  mount(root) {
    this.summary = h('div', { class: 'grid2', id: 'bridge-summary' });
    this.integrations = h('div', { id: 'bridge-integrations' });
    this.health = h('pre', { id: 'bridge-health', class: 'muted' }, 'Not asked yet.');
    this.level = h('select', { id: 'log-level', 'aria-label': 'Log level', onchange: () => this.setLevel() }, ...LEVELS.map((level) => h('option', { value: level }, level)));
    root.append(
      h('h1', {}, 'Bridge'),
      h('div', { class: 'card' }, this.summary),
      h('div', { class: 'card' }, h('h2', {}, 'Integrations'), this.integrations),
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
    const integrations = Object.entries(info.integrations || {});
    this.integrations.replaceChildren(...integrations.map(([name, entry]) => h('div', { class: 'card', 'data-integration': name },
      h('h2', {}, name.toUpperCase(), ' ', h('span', { class: `pill ${entry.status === 'running' ? 'online' : entry.status === 'disabled' ? 'unknown' : 'offline'}` }, entry.status)),
      h('div', { class: 'grid2' }, ...Object.entries(entry).filter(([key]) => key !== 'status').flatMap(([key, value]) =>
        [h('span', { class: 'muted' }, key.replaceAll('_', ' ')), h('span', {}, value === null ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value))])))));
  }
}
