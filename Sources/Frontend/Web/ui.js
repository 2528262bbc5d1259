// Small functions the views share: building elements, times, signal, notices.

/// Builds an element: h('a', { href: '#/x', class: 'y' }, 'text', child…). `on*` attributes become listeners.
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), value);
    else if (key in element && typeof value !== 'string') element[key] = value;
    else element.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/// "12 s ago", "3 min ago"… for a time in milliseconds.
export function ago(time, now = Date.now()) {
  if (!time) return '—';
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} d ago`;
}

/// Four bars for a BLE signal in dBm, with the number beside them.
export function signal(rssi) {
  if (typeof rssi !== 'number') return null;
  const level = rssi >= -60 ? 4 : rssi >= -70 ? 3 : rssi >= -80 ? 2 : rssi >= -90 ? 1 : 0;
  const bars = h('span', { class: 'bars', title: `${rssi} dBm`, 'aria-label': `signal ${level} of 4` });
  for (let index = 1; index <= 4; index++) bars.append(h('i', { class: index <= level ? 'on' : '', style: `height:${index * 25}%` }));
  return h('span', {}, bars, ` ${rssi} dBm`);
}

/// A short notice at the bottom of the page.
export function toast(text, bad = false) {
  const box = document.getElementById('toasts');
  const item = h('div', { class: bad ? 'toast bad' : 'toast', role: bad ? 'alert' : 'status' }, text);
  box.append(item);
  setTimeout(() => item.remove(), bad ? 8000 : 3000);
}

/// Runs a request and reports its failure on the page rather than in the console.
export async function attempt(action, success) {
  try {
    const result = await action();
    if (success) toast(typeof success === 'function' ? success(result) : success);
    return result;
  } catch (error) {
    toast(error.message || String(error), true);
    return undefined;
  }
}

/// Reads and writes a choice kept in the browser.
export function choice(key, fallback) {
  return {
    get: () => localStorage.getItem(`t2m.${key}`) ?? fallback,
    set: (value) => localStorage.setItem(`t2m.${key}`, value),
  };
}

export function displayName(device) {
  return device.alias !== device.id ? device.alias : device.label || device.id;
}
