// A game's card table as the service describes it (GameInfo.cards: name, copies and the
// game's attributes, numbers as text), with the counts every game module needs.

export class CardTable {
  constructor(cards) {
    this.cards = (cards || []).map((card) => ({ name: card.name, copies: Number(card.copies || 0), attributes: card.attributes || {} }));
    this.order = new Map(this.cards.map((card, kind) => [card.name, kind]));
    // How many cards the box holds.
    this.size = this.cards.reduce((total, card) => total + card.copies, 0);
  }

  // The kind (the position in the game's kind order) of a card name; -1 for an unknown one.
  kind(name) {
    return this.order.has(name) ? this.order.get(name) : -1;
  }

  // A card's attribute, as text ("" when it has none).
  attribute(name, key) {
    const card = this.cards[this.kind(name)];
    return card && card.attributes[key] !== undefined ? card.attributes[key] : "";
  }

  // The distinct values of an attribute, in the order the kinds first show them.
  values(key) {
    return [...new Set(this.cards.map((card) => card.attributes[key]).filter((v) => v !== undefined))];
  }

  // The copies of each kind that the `placed` card names leave: {name: count}.
  left(placed) {
    const out = Object.fromEntries(this.cards.map((card) => [card.name, card.copies]));
    for (const name of placed) if (name in out) out[name] -= 1;
    return out;
  }
}

// A game's rules at their defaults: {option: value} from the service's RulesOption list.
export function defaultRules(options) {
  return Object.fromEntries((options || []).map((o) => [o.name, Boolean(o.default_value)]));
}
