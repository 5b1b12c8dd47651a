// The page's words in French and English (static/js/i18n.js): both catalogues have the same
// keys, none empty, and a translation takes no {parameter} the English text is not given
// (in either case: "{Colour}" is "{colour}" capitalised); so do each game module's own; every
// key the page's code and index.html name is in them.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { CATALOGUES, chooseLanguage, language, LANGUAGES, plural, setLanguage, t } from "../static/js/i18n.js";

const STATIC = new URL("../static/", import.meta.url);
const JS = new URL("js/", STATIC);
const GAMES = new URL("js/games/", STATIC);
const generic = readdirSync(JS).filter((name) => name.endsWith(".js")).map((name) => new URL(name, JS));
const gameFiles = readdirSync(GAMES).filter((name) => name.endsWith(".js") && name !== "index.js");
const params = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1].toLowerCase());

function sameKeys(catalogues, what) {
  const [first, ...others] = LANGUAGES;
  for (const lang of others) assert.deepEqual(Object.keys(catalogues[lang]).sort(), Object.keys(catalogues[first]).sort(), `${what}: ${lang}'s keys`);
  for (const lang of LANGUAGES) {
    for (const [key, text] of Object.entries(catalogues[lang])) {
      assert.ok(typeof text === "string" && text.trim(), `${what}: ${lang}'s ${key} is empty`);
      const given = new Set(params(catalogues[first][key]));
      assert.deepEqual(params(text).filter((p) => !given.has(p)), [], `${what}: ${lang}'s ${key} takes a parameter English is not given`);
    }
  }
}

// The keys a source names: t("key"), plural("key") (its .one and .other), or `helper`("key").
function keysIn(source, helper = null) {
  const keys = [];
  for (const m of source.matchAll(/\b(t|plural)\("([^"]+)"/g)) keys.push(...(m[1] === "plural" ? [`${m[2]}.one`, `${m[2]}.other`] : [m[2]]));
  if (helper) for (const m of source.matchAll(new RegExp(`\\b${helper}\\("([^"]+)"`, "g"))) keys.push(m[1]);
  return keys;
}

test("the page's catalogues: French and English, the same keys, none empty", () => {
  assert.deepEqual(LANGUAGES.sort(), ["en", "fr"]);
  sameKeys(CATALOGUES, "js/i18n");
  assert.ok(Object.keys(CATALOGUES.en).length > 150);
});

test("every key the page's code and index.html name is in the catalogue", () => {
  const missing = [];
  for (const file of [...generic, new URL("index.js", GAMES)]) {
    for (const key of keysIn(readFileSync(file, "utf8"))) if (!(key in CATALOGUES.en)) missing.push(`${file.pathname}: ${key}`);
  }
  const html = readFileSync(new URL("index.html", STATIC), "utf8");
  for (const m of html.matchAll(/data-i18n(?:-label|-title)?="([^"]+)"/g)) if (!(m[1] in CATALOGUES.en)) missing.push(`index.html: ${m[1]}`);
  assert.deepEqual(missing, []);
});

test("each game module's own catalogue: both languages, and every key it names", async () => {
  assert.ok(gameFiles.length >= 2);
  for (const name of gameFiles) {
    const module = await import(new URL(name, GAMES));
    const prefix = `${name.replace(/\.js$/, "")}.`;
    sameKeys(module.CATALOGUE, name);
    assert.ok(Object.keys(module.CATALOGUE.en).every((key) => key.startsWith(prefix)), `${name}: keys start with ${prefix}`);
    assert.ok(`${prefix}title` in module.CATALOGUE.en, `${name}: its title`);
    const source = readFileSync(new URL(name, GAMES), "utf8");
    const missing = keysIn(source, "T")
      .map((key) => (key in CATALOGUES.en ? key : key.startsWith(prefix) ? key : prefix + key))
      .filter((key) => !(key in CATALOGUES.en) && !(key in module.CATALOGUE.en));
    assert.deepEqual(missing, [], name);
  }
});

test("the language: the one chosen, else the browser's, else English", () => {
  assert.equal(chooseLanguage("fr", "en-GB"), "fr");
  assert.equal(chooseLanguage(null, "fr-CA"), "fr");
  assert.equal(chooseLanguage(null, "de-DE"), "en");
  assert.equal(chooseLanguage("xx", "EN-us"), "en");
});

test("t fills the parameters in the language chosen; plural counts as the language does", () => {
  const was = language();
  try {
    setLanguage("fr");
    assert.equal(t("follow.title", { who: "J2" }), "Qu'a fait J2 ?");
    assert.equal(plural("summary.steps", 0), "0 étape saisie");
    setLanguage("en");
    assert.equal(plural("summary.steps", 0), "0 steps entered");
    assert.equal(plural("summary.steps", 1), "1 step entered");
    assert.equal(t("no.such.key"), "no.such.key", "an unknown key is shown as it is");
  } finally {
    setLanguage(was);
  }
});
