// Play mode's settings, kept in localStorage: key bindings (guideline defaults), DAS, ARR,
// soft-drop speed, gravity, preview length, hint, ghost, and whether to use the PC graph.

const STORAGE = 'pc-settings-v1';

/** The actions a key can do, in the order the settings list them. */
export const ACTIONS = [
  ['left', 'Move left'],
  ['right', 'Move right'],
  ['softDrop', 'Soft drop'],
  ['hardDrop', 'Hard drop'],
  ['cw', 'Rotate clockwise'],
  ['ccw', 'Rotate counter-clockwise'],
  ['r180', 'Rotate 180°'],
  ['hold', 'Hold'],
  ['undo', 'Undo'],
  ['hint', 'Hint on/off'],
  ['restart', 'New game'],
];

/** Guideline defaults: arrows, Z/X/A or Ctrl for rotations, C/Shift hold, Space hard drop. */
export const DEFAULT_KEYS = {
  left: ['ArrowLeft'],
  right: ['ArrowRight'],
  softDrop: ['ArrowDown'],
  hardDrop: ['Space'],
  cw: ['ArrowUp', 'KeyX'],
  ccw: ['KeyZ', 'ControlLeft'],
  r180: ['KeyA'],
  hold: ['KeyC', 'ShiftLeft'],
  undo: ['Backspace'],
  hint: ['KeyH'],
  restart: ['F2'],
};

export const DEFAULTS = {
  keys: DEFAULT_KEYS,
  das: 167, // ms before a held move repeats
  arr: 33, // ms between repeats; 0: straight to the wall
  sdf: 25, // ms per row of soft drop; 0: straight down
  gravity: false,
  gravityMs: 1000, // ms per row when gravity is on
  preview: 5,
  hint: true,
  ghost: true,
  graph: true, // download and use the PC graph
};

export const LIMITS = {
  das: [0, 1000], arr: [0, 500], sdf: [0, 500], gravityMs: [16, 5000], preview: [1, 6],
};

function clone(x) {
  return JSON.parse(JSON.stringify(x));
}

/** The settings saved, each checked and filled in from the defaults. */
export function loadSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(STORAGE) ?? '{}') ?? {};
  } catch (_) {
    saved = {};
  }
  const settings = clone(DEFAULTS);
  for (const key of Object.keys(DEFAULTS)) {
    if (key === 'keys' || !(key in saved)) continue;
    if (typeof saved[key] !== typeof DEFAULTS[key]) continue;
    settings[key] = saved[key];
  }
  for (const [key, [lo, hi]] of Object.entries(LIMITS)) {
    settings[key] = Math.min(hi, Math.max(lo, Math.round(Number(settings[key]) || 0)));
  }
  if (saved.keys && typeof saved.keys === 'object') {
    for (const [action] of ACTIONS) {
      const codes = saved.keys[action];
      if (Array.isArray(codes) && codes.every((c) => typeof c === 'string')) settings.keys[action] = codes.slice(0, 2);
    }
  }
  return settings;
}

export function saveSettings(settings) {
  try {
    localStorage.setItem(STORAGE, JSON.stringify(settings));
  } catch (_) {
    // private browsing: kept for this visit only
  }
}

/** The action of a key code, or undefined. */
export function actionOf(settings, code) {
  for (const [action] of ACTIONS) {
    if ((settings.keys[action] ?? []).includes(code)) return action;
  }
  return undefined;
}

/** An action's name as the settings list it (`hold` → `Hold`). */
export function actionName(action) {
  return ACTIONS.find(([a]) => a === action)?.[1] ?? action;
}

/**
 * Binds `code` to `action` in slot `slot` (0 or 1). A key does one action only: when
 * another action had it, it moves here, and the answer says which ({from}, or null).
 */
export function bind(settings, action, slot, code) {
  const owner = actionOf(settings, code);
  for (const [other] of ACTIONS) settings.keys[other] = (settings.keys[other] ?? []).filter((c) => c !== code);
  const codes = [...(settings.keys[action] ?? [])];
  codes[slot] = code;
  settings.keys[action] = codes.filter(Boolean).slice(0, 2);
  return owner && owner !== action ? { from: owner } : null;
}

// The actions of the `recommend` example's key notation (`sd`: soft drop held down to the
// bottom, `d`: one row).
const STEP_ACTIONS = {
  L: 'left', R: 'right', cw: 'cw', ccw: 'ccw', 180: 'r180', d: 'softDrop', sd: 'softDrop', hd: 'hardDrop', hold: 'hold',
};

/**
 * A step of a move's keys as the player presses it: [the first key bound to its action,
 * what it does], e.g. `hold` → [`C`, `hold (C)`] with the default keys.
 */
export function stepCap(settings, step) {
  const action = STEP_ACTIONS[step];
  if (!action) return [step, step];
  const code = settings.keys[action]?.[0];
  const name = actionName(action).toLowerCase();
  if (!code) return [name, `${name}: no key bound (Settings)`];
  const label = keyLabel(code);
  return step === 'sd' ? [`${label}…`, `soft drop to the bottom: keep ${label} down`] : [label, `${name} (${label})`];
}

/** A move's keys as the player presses them, as text: `L L cw hd` → `← ← ↑ Space`. */
export function stepsText(settings, keys) {
  return (keys ?? '').split(' ').filter(Boolean).map((k) => stepCap(settings, k)[0]).join(' ');
}

/** A key code as people read it: `ArrowLeft` → ←, `KeyZ` → Z, `ControlLeft` → Ctrl. */
export function keyLabel(code) {
  if (!code) return '—';
  const names = {
    ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓', Space: 'Space',
    ControlLeft: 'Ctrl', ControlRight: 'Right Ctrl', ShiftLeft: 'Shift', ShiftRight: 'Right Shift',
    AltLeft: 'Alt', AltRight: 'Right Alt', Backspace: 'Backspace', Enter: 'Enter', Escape: 'Esc',
  };
  if (names[code]) return names[code];
  if (code.startsWith('Key')) return code.slice(3);
  if (code.startsWith('Digit')) return code.slice(5);
  if (code.startsWith('Numpad')) return `Num ${code.slice(6)}`;
  return code;
}
