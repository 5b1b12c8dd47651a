// The first screen: the game, the number of players and your seat, one line of help each,
// then the deal or a position set up by hand. It shows on a first visit and from New game.
import { onLanguage, seat, t } from "./i18n.js";
import { el } from "./ui.js";

const $ = (id) => document.getElementById(id);

// `games` as js/games/index.js makes them; `chosen` the game, players and seat it opens on.
// Resolves with {choice: "deal" | "blank" | "cancel", game, players, seat}.
let redraw = () => {}; // the open screen's words drawn again (a change of language)
onLanguage(() => redraw());

export function askStart(games, chosen) {
  const dialog = $("start-dialog");
  const pick = { ...chosen };
  const drawCounts = () => {
    const game = games.find((g) => g.id === pick.game);
    if (!game.playerCounts.includes(pick.players)) pick.players = game.playerCounts[Math.min(1, game.playerCounts.length - 1)];
    pick.seat = Math.min(pick.seat, pick.players - 1);
    $("start-players").replaceChildren(
      ...game.playerCounts.map((n) => el("option", { value: n, selected: n === pick.players }, n === 1 ? t("players.solo") : n)),
    );
    $("start-seat").replaceChildren(
      ...Array.from({ length: pick.players }, (_, q) =>
        el("option", { value: q, selected: q === pick.seat }, q === 0 ? t("start.first_seat", { seat: seat(0) }) : seat(q)),
      ),
    );
    $("start-help-seat").textContent = `${t("start.help.seat")} ${game.firstPlayer()}`.trim();
  };
  const drawGames = () => $("start-games").replaceChildren(
    ...games.map((g) => {
      const radio = el("input", { type: "radio", name: "start-game", value: g.id, id: `start-game-${g.id}`, checked: g.id === pick.game });
      radio.onchange = () => {
        pick.game = g.id;
        drawCounts();
      };
      return el("label", { class: "choice", for: `start-game-${g.id}` }, radio, g.title);
    }),
  );
  drawGames();
  $("start-players").onchange = () => {
    pick.players = Number($("start-players").value);
    drawCounts();
  };
  $("start-seat").onchange = () => (pick.seat = Number($("start-seat").value));
  drawCounts();
  redraw = () => {
    drawGames();
    drawCounts();
  };
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve({ ...pick, choice: dialog.returnValue || "cancel" }), { once: true });
    dialog.showModal();
  });
}
