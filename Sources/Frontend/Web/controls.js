// A device's exposes as controls. Each control knows the state path it shows and sends a `/set` with the
// same nested object MQTT would carry; values shown are refreshed from the state unless being edited.

const READ = 1;
const SET = 2;

export function valueAt(state, path) {
  return path.reduce((value, key) => (value && typeof value === 'object' ? value[key] : undefined), state);
}

function nest(path, value) {
  return path.reduceRight((inner, key) => ({ [key]: inner }), value);
}

/// Builds the controls; returns { elements, updaters } where each updater takes the whole state.
export function buildControls(exposes, send, h) {
  const updaters = [];
  const elements = [];
  const stops = [];
  let stopAll = null;
  const walk = (list, path, into, qualifiers) => {
    for (const expose of list || []) {
      const where = expose.property ? [...path, expose.property] : path;
      if (expose.type === 'light') { into.push(light(expose.light || {}, send, h, updaters)); continue; }
      if (expose.type === 'composite') {
        const box = h('fieldset', {}, h('legend', {}, expose.name || expose.property));
        const inner = [];
        const held = [];
        walk(expose.features, where, inner, held);
        if (held.length) inner.push(command(held, where, send, h));
        if (!inner.length) continue;
        box.append(...inner);
        into.push(box);
        continue;
      }
      if (expose.type === 'action' && expose.property === 'stop') {
        if (path.length) stops.push({ path, payload: expose.values?.[0] ?? 'stop' }); else stopAll = { stop: expose.values?.[0] ?? true };
      }
      // Inside a composite, values that are only ever sent (a motor's power, a move's time or degrees, its
      // brake) go together in one command rather than one message each.
      const access = expose.access ?? READ;
      if (qualifiers && (access & SET) && !(access & READ) && (expose.type === 'numeric' || expose.type === 'binary')) {
        qualifiers.push({ expose, path: where });
        continue;
      }
      const control = single(expose, where, send, h, updaters);
      if (control) into.push(control);
    }
  };
  walk(exposes, [], elements, null);
  if (stopAll || stops.length) {
    // One big press stops every motor: the device's own stop, else each composite's stop in its place.
    const payload = stopAll || Object.assign({}, ...stops.map(({ path, payload }) => nest(path, payload)));
    elements.unshift(h('button', { type: 'button', class: 'danger stop', id: 'stop-all', onclick: () => send(payload) }, 'STOP'));
  }
  return { elements, updaters };
}

/// Inputs for values that are only sent, and one button that sends those filled in as one `/set`.
function command(held, path, send, h) {
  const fields = held.map(({ expose, path: where }) => {
    const label = expose.name || expose.property;
    const id = `control-${where.join('-')}`;
    const input = expose.type === 'numeric'
      ? h('input', { type: 'number', id, min: expose.minimum, max: expose.maximum, step: expose.step ?? 1, placeholder: expose.unit || '', 'aria-label': label, style: 'width:7em' })
      : h('select', { id, 'aria-label': label }, h('option', { value: '' }, '—'), h('option', { value: 'on' }, 'on'), h('option', { value: 'off' }, 'off'));
    const value = () => {
      if (input.value === '') return undefined;
      if (expose.type === 'numeric') return Number(input.value);
      return input.value === 'on' ? (expose.value_on ?? true) : (expose.value_off ?? false);
    };
    return { key: expose.property, input, value, label: h('label', { for: id }, label) };
  });
  const button = h('button', { type: 'button', class: 'primary', id: `send-${path.join('-')}`, onclick: () => {
    const payload = {};
    for (const field of fields) { const value = field.value(); if (value !== undefined) payload[field.key] = value; }
    if (Object.keys(payload).length) send(nest(path, payload));
  } }, 'Send');
  return h('div', { class: 'control' }, h('div', { class: 'row' }, ...fields.map((field) => h('span', { class: 'field' }, field.label, field.input))), h('div', { class: 'row' }, button));
}

function row(h, label, ...children) {
  return h('div', { class: 'control' }, h('label', {}, label), h('div', { class: 'row' }, ...children));
}

function throttled(send, delay = 120) {
  let timer = null;
  let last = null;
  return (payload) => {
    last = payload;
    if (timer) return;
    send(payload);
    last = null;
    timer = setTimeout(() => { timer = null; if (last) send(last); }, delay);
  };
}

function single(expose, path, send, h, updaters) {
  const access = expose.access ?? READ;
  const label = expose.name || expose.property;
  const unit = expose.unit ? ` ${expose.unit}` : '';
  if (!(access & SET)) return null;
  const id = `control-${path.join('-')}`;
  switch (expose.type) {
    case 'binary': {
      const on = expose.value_on ?? true;
      const off = expose.value_off ?? false;
      const button = h('button', { type: 'button', class: 'switch', id, 'aria-pressed': 'false', onclick: () => send(nest(path, button.getAttribute('aria-pressed') === 'true' ? off : on)) }, 'Off');
      updaters.push((state) => { const value = valueAt(state, path) === on; button.setAttribute('aria-pressed', String(value)); button.textContent = value ? 'On' : 'Off'; });
      return row(h, label, button);
    }
    case 'numeric': {
      const min = expose.minimum ?? 0;
      const max = expose.maximum ?? 100;
      const slider = h('input', { type: 'range', id, min, max, step: expose.step ?? 1, value: min < 0 ? 0 : min, 'aria-label': label });
      const output = h('output', { for: id }, '');
      const push = throttled(send);
      slider.addEventListener('input', () => { output.textContent = slider.value + unit; push(nest(path, Number(slider.value))); });
      slider.addEventListener('change', () => send(nest(path, Number(slider.value))));
      updaters.push((state) => {
        const value = valueAt(state, path);
        if (typeof value !== 'number' || document.activeElement === slider) return;
        slider.value = value;
        output.textContent = value + unit;
      });
      return row(h, label, slider, output);
    }
    case 'enum': {
      const select = h('select', { id, 'aria-label': label, onchange: () => send(nest(path, select.value)) }, ...(expose.values || []).map((value) => h('option', { value }, value)));
      updaters.push((state) => { const value = valueAt(state, path); if (value !== undefined && document.activeElement !== select) select.value = value; });
      return row(h, label, select);
    }
    case 'text': {
      const input = h('input', { type: 'text', id, 'aria-label': label });
      const button = h('button', { type: 'button', onclick: () => send(nest(path, input.value)) }, 'Send');
      updaters.push((state) => { const value = valueAt(state, path); if (typeof value === 'string' && document.activeElement !== input) input.value = value; });
      return row(h, label, input, button);
    }
    case 'scene':
      return row(h, label, h('button', { type: 'button', id, onclick: () => send(nest(path, expose.values?.[0] ?? label)) }, 'Activate'));
    case 'action':
      return row(h, label, ...(expose.values?.length ? expose.values : [true]).map((value) =>
        h('button', { type: 'button', id: `${id}-${value}`, onclick: () => send(nest(path, value)) }, value === true ? label : String(value))));
    default:
      return null;
  }
}

function hexToHS(hex) {
  const [r, g, b] = [1, 3, 5].map((index) => parseInt(hex.slice(index, index + 2), 16) / 255);
  const max = Math.max(r, g, b);
  const delta = max - Math.min(r, g, b);
  let hue = 0;
  if (delta) hue = max === r ? ((g - b) / delta) % 6 : max === g ? (b - r) / delta + 2 : (r - g) / delta + 4;
  return { h: Math.round(((hue * 60) + 360) % 360), s: Math.round(max ? (delta / max) * 100 : 0) };
}

function hsToHex({ h: hue = 0, s = 0 }) {
  const f = (n) => { const k = (n + hue / 60) % 6; return 1 - (s / 100) * Math.max(0, Math.min(k, 4 - k, 1)); };
  return '#' + [f(5), f(3), f(1)].map((value) => Math.round(value * 255).toString(16).padStart(2, '0')).join('');
}

function light(features, send, h, updaters) {
  const box = h('fieldset', { class: 'light' }, h('legend', {}, 'Light'));
  const power = h('button', { type: 'button', class: 'switch', id: 'light-state', 'aria-pressed': 'false', onclick: () => send({ state: power.getAttribute('aria-pressed') === 'true' ? 'OFF' : 'ON' }) }, 'Off');
  box.append(row(h, 'Power', power));
  updaters.push((state) => { const on = state.state === 'ON'; power.setAttribute('aria-pressed', String(on)); power.textContent = on ? 'On' : 'Off'; });
  if (features.brightness) {
    const slider = h('input', { type: 'range', id: 'light-brightness', min: 1, max: 255, value: 255, 'aria-label': 'Brightness' });
    slider.addEventListener('change', () => send({ state: 'ON', brightness: Number(slider.value) }));
    updaters.push((state) => { if (typeof state.brightness === 'number' && document.activeElement !== slider) slider.value = state.brightness; });
    box.append(row(h, 'Brightness', slider));
  }
  const modes = features.color_modes || [];
  if (modes.includes('color_temp') && features.min_kelvin) {
    const slider = h('input', { type: 'range', id: 'light-color-temp', min: features.min_kelvin, max: features.max_kelvin, step: 50, 'aria-label': 'Colour temperature' });
    const output = h('output', {}, '');
    slider.addEventListener('input', () => { output.textContent = `${slider.value} K`; });
    slider.addEventListener('change', () => send({ state: 'ON', color_temp: Number(slider.value) }));
    updaters.push((state) => { if (typeof state.color_temp === 'number' && document.activeElement !== slider) { slider.value = state.color_temp; output.textContent = `${state.color_temp} K`; } });
    box.append(row(h, 'Colour temperature', slider, output));
  }
  if (modes.includes('hs')) {
    const picker = h('input', { type: 'color', id: 'light-color', 'aria-label': 'Colour' });
    picker.addEventListener('change', () => send({ state: 'ON', color: hexToHS(picker.value) }));
    updaters.push((state) => { if (state.color && document.activeElement !== picker) picker.value = hsToHex(state.color); });
    box.append(row(h, 'Colour', picker));
  }
  if (features.effects?.length) {
    box.append(row(h, 'Effect', ...features.effects.map((effect) => h('button', { type: 'button', onclick: () => send({ effect }) }, effect))));
  }
  return box;
}
