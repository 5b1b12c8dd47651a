// For the page's unit tests: run `check` with the page in language `lang`, then put back the
// language it was in.
import { language, setLanguage } from "../static/js/i18n.js";

export function inLanguage(lang, check) {
  const was = language();
  try {
    setLanguage(lang);
    check();
  } finally {
    setLanguage(was);
  }
}
