// The settings menu in the top bar of every page: sound and notifications when it becomes your turn, the
// pace of moves, the language, and Log out. One small menu (a <details>) instead of controls scattered
// over the bar; each choice is kept in the browser (localStorage).

import { pacePicker } from "./animate.js";
import { h } from "./dom.js";
import { languagePicker, onLanguageChange, t } from "./i18n.js";
import { api, session } from "./net.js";

const SOUND_KEY = "ghostgames.sound";
const NOTIFY_KEY = "ghostgames.notify";

/** Sound on your turn: on unless turned off. */
export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== "off";
}

/** A browser notification on your turn: off unless turned on (and the browser allowed it). */
export function notifyOn() {
  return localStorage.getItem(NOTIFY_KEY) === "on" && "Notification" in window && Notification.permission === "granted";
}

let audio = null;
/** Two short soft tones, made with WebAudio (no sound file). Tests read `document.body.dataset.turnSounds`. */
export function playTurnSound() {
  if (!soundOn()) return;
  document.body.dataset.turnSounds = String(Number(document.body.dataset.turnSounds || 0) + 1);
  try {
    audio ||= new (window.AudioContext || window.webkitAudioContext)();
    const start = audio.currentTime + 0.01;
    [[660, 0], [880, 0.14]].forEach(([frequency, offset]) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.15, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.22);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 0.25);
    });
  } catch {
    // no audio here (or not allowed before a first click): the title and the favicon still say it
  }
}

/** A notification outside the tab, only when it is hidden (the page says it itself otherwise). */
export function notifyTurn(text) {
  if (!notifyOn() || !document.hidden) return;
  try {
    const note = new Notification(text, { icon: "/favicon.svg", tag: "ghostgames-turn" });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch {
    // a browser that refuses notifications from pages
  }
}

/** Forget who I am here (and on the server, when it knows how): the token is dropped in any case. */
export async function logOut(connection) {
  const token = session.token;
  if (token) {
    try {
      await api("/logout", { method: "POST" });
    } catch {
      // an older server without /api/logout (404), or offline: forgetting the token locally is enough
    }
  }
  session.save(null, null);
  connection.restart();
}

/** The menu: a button in the top bar that unfolds the settings. */
export function settingsMenu(connection) {
  const sound = h("input", { type: "checkbox", id: "setting-sound", checked: soundOn(),
    onchange: () => {
      localStorage.setItem(SOUND_KEY, sound.checked ? "on" : "off");
      if (sound.checked) playTurnSound(); // a sample, and it unlocks audio with this click
    } });
  const notifyNote = h("small", { class: "settings-note", role: "status" });
  const notify = h("input", { type: "checkbox", id: "setting-notify", checked: notifyOn(),
    onchange: async () => {
      notifyNote.textContent = "";
      if (!notify.checked) {
        localStorage.setItem(NOTIFY_KEY, "off");
        return;
      }
      if (!("Notification" in window)) {
        notify.checked = false;
        notifyNote.textContent = t("settings.notify_unsupported");
        return;
      }
      // asked only now, when the player turns it on (the browser's own prompt)
      const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      const granted = permission === "granted";
      notify.checked = granted;
      localStorage.setItem(NOTIFY_KEY, granted ? "on" : "off");
      if (!granted) notifyNote.textContent = t("settings.notify_denied");
    } });
  const logout = h("button", { type: "button", class: "do-logout", onclick: () => {
    menu.open = false;
    logOut(connection);
  } });
  const summary = h("summary", { class: "settings-button" });
  const labels = {};
  const label = (key, control) => (labels[key] = h("label", { for: control.id }));
  const pace = pacePicker(t, onLanguageChange);
  const language = languagePicker();
  const menu = h("details", { class: "settings-menu" },
    summary,
    h("div", { class: "settings-panel" },
      h("div", { class: "settings-row" }, sound, " ", label("settings.sound", sound)),
      h("div", { class: "settings-row" }, notify, " ", label("settings.notify", notify), notifyNote),
      h("div", { class: "settings-row" }, label("ui.pace", pace), " ", pace),
      h("div", { class: "settings-row" }, label("ui.language", language), " ", language),
      h("div", { class: "settings-row settings-logout" }, logout)));
  const relabel = () => {
    summary.textContent = `⚙ ${t("settings.title")}`;
    for (const [key, element] of Object.entries(labels)) element.textContent = t(key);
      logout.textContent = t("settings.logout");
  };
  const showLogout = () => {
    logout.parentElement.hidden = !connection.user;
  };
  relabel();
  onLanguageChange(relabel);
  connection.onOpen(showLogout);
  showLogout();
  // Escape or a click elsewhere folds it away
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open) {
      menu.open = false;
      summary.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });
  return menu;
}
