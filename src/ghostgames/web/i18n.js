// Translations: JSON catalogs in /i18n/{lang}.json, one flat key -> text map per language.
// Texts may hold {name} placeholders; a text that counts has one entry per plural form (see lookup). A missing key falls back to English, then to the key itself,
// so a gap is visible instead of silent (the catalog test keeps every language complete).

export const LANGUAGES = ["en", "fr", "de", "ko", "uk"];
export const LANGUAGE_NAMES = { en: "English", fr: "Français", de: "Deutsch", ko: "한국어", uk: "Українська" };

const STORE_KEY = "ghostgames.lang";
let current = "en";
let catalog = {};
let fallback = {};
const listeners = [];

/** The language to start with: the saved choice, else the first browser language we speak. */
export function preferredLanguage() {
  const saved = localStorage.getItem(STORE_KEY);
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

async function fetchCatalog(lang) {
  const response = await fetch(`/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`no catalog for ${lang}`);
  return response.json();
}

export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  if (!Object.keys(fallback).length) fallback = await fetchCatalog("en");
  catalog = lang === "en" ? fallback : await fetchCatalog(lang);
  current = lang;
  localStorage.setItem(STORE_KEY, lang);
  document.documentElement.lang = lang;
  translateTree(document);
  for (const listener of listeners) listener(lang);
}

export function language() {
  return current;
}

export function onLanguageChange(listener) {
  listeners.push(listener);
}

export function has(key) {
  return key in catalog || key in fallback || `${key}#other` in catalog || `${key}#other` in fallback;
}

const pluralRules = {};

/**
 * A text with plural forms is stored as `key#one`, `key#few`, `key#other`… one entry per form the language
 * has (Intl.PluralRules names them: English one/other, Korean other only, Ukrainian one/few/many/other);
 * `args.n` picks the form.
 */
function lookup(texts, lang, key, args) {
  if (key in texts) return texts[key];
  if (!(`${key}#other` in texts)) return undefined;
  pluralRules[lang] ||= new Intl.PluralRules(lang);
  const form = pluralRules[lang].select(Number(args.n ?? 0));
  return texts[`${key}#${form}`] ?? texts[`${key}#other`];
}

/** The text for `key` in the current language with {placeholders} filled from `args`. */
export function t(key, args = {}) {
  const text = lookup(catalog, current, key, args) ?? lookup(fallback, "en", key, args) ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

/** Fill every element marked with data-i18n (text) or data-i18n-{placeholder,title,aria-label}. */
export function translateTree(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const attr of ["placeholder", "title", "aria-label"]) {
    const data = `i18n${attr.replace(/(^|-)(\w)/g, (m, dash, c) => c.toUpperCase())}`;
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) el.setAttribute(attr, t(el.dataset[data]));
  }
}

/** A <select> that switches the page's language; every page shows one. */
export function languagePicker() {
  const select = document.createElement("select");
  select.id = "language-picker";
  select.setAttribute("data-i18n-aria-label", "ui.language");
  select.setAttribute("aria-label", t("ui.language"));
  for (const lang of LANGUAGES) {
    const option = document.createElement("option");
    option.value = lang;
    option.textContent = LANGUAGE_NAMES[lang];
    select.append(option);
  }
  select.value = current;
  select.addEventListener("change", () => setLanguage(select.value));
  onLanguageChange((lang) => (select.value = lang));
  return select;
}
