// The page's words in French and English: t(key, params) is the current language's text for
// `key` ({name} parameters filled), from one catalogue per language (js/i18n/<lang>.js, the
// same keys) and the games' own (each game module adds its names with addCatalogues). The
// language is the one chosen on the page (kept in localStorage), else the browser's.
// setLanguage() re-translates index.html's static texts (data-i18n attributes) and tells
// the page (onLanguage) to draw itself again. With localStorage's "regent.i18n.audit" set,
// every text t returns is kept (window.regentI18n.shown()), for the test that checks no
// text shown escapes the catalogues.
import en from "./i18n/en.js";
import fr from "./i18n/fr.js";

export const CATALOGUES = { en, fr };
export const LANGUAGES = Object.keys(CATALOGUES);
const STORE = "regent.language";
const AUDIT = "regent.i18n.audit";
const games = { en: {}, fr: {} }; // the games' catalogues, added by their modules
const listeners = [];
const storage = typeof localStorage === "undefined" ? null : localStorage;
const audit = storage && storage.getItem(AUDIT) === "1" ? new Set() : null;

// The language of a page: the one chosen before (`stored`), else the browser's (`browser`,
// navigator.language), else English.
export function chooseLanguage(stored, browser) {
  if (LANGUAGES.includes(stored)) return stored;
  const prefix = String(browser || "").slice(0, 2).toLowerCase();
  return LANGUAGES.includes(prefix) ? prefix : "en";
}

let current = chooseLanguage(storage && storage.getItem(STORE), typeof navigator === "undefined" ? "" : navigator.language);

export const language = () => current;

// Add a game's names: {en: {key: text}, fr: {key: text}}.
export function addCatalogues(more) {
  for (const lang of LANGUAGES) Object.assign(games[lang], more[lang] || {});
}

// Whether `key` has a text in the current language.
export const has = (key) => key in CATALOGUES[current] || key in games[current];

// The text of `key` in the current language, its {name} parameters filled from `params`; an
// unknown key is shown as it is (and said on the console).
export function t(key, params = {}) {
  let text = key in CATALOGUES[current] ? CATALOGUES[current][key] : games[current][key];
  if (text === undefined) {
    console.warn(`no ${current} text for ${key}`);
    text = key;
  }
  const filled = text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  if (audit) audit.add(filled);
  return filled;
}

// `key`.one or `key`.other by `count` (French counts 0 and 1 as one), with {count} filled.
export function plural(key, count, params = {}) {
  const one = current === "fr" ? count < 2 : count === 1;
  return t(`${key}.${one ? "one" : "other"}`, { count, ...params });
}

// A number in the current language's way (1,500 or 1 500).
export const number = (value, digits = null) =>
  Number(value).toLocaleString(current, digits === null ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits });

// The player `q` (0-based) as the page names it: you, or P1..Pn (J1..Jn in French).
export const seat = (q) => t("seat", { n: q + 1 });

// index.html's static texts: an element's data-i18n is its text's key, data-i18n-label its
// aria-label's, data-i18n-title its title's.
export function translateStatic(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.setAttribute("title", t(node.dataset.i18nTitle));
  if (root.documentElement) {
    root.documentElement.lang = current;
    root.title = t("page.title");
  }
}

// Call `draw` after every change of language (the page draws itself again).
export const onLanguage = (draw) => listeners.push(draw);

export function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) return;
  current = lang;
  if (storage) storage.setItem(STORE, lang);
  if (audit) audit.clear(); // what the other language showed is no answer for this one
  if (typeof document !== "undefined") translateStatic(document);
  for (const draw of listeners) draw();
}

if (audit && typeof window !== "undefined") window.regentI18n = { shown: () => [...audit] };
