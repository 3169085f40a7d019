// The deal shuffle of app/engine/rng.py, version 1, written out again for the page (issue 32):
// SplitMix64, bounded draws by rejection, Fisher–Yates from the end. A deal code deals the same
// cards here as on the server; tests/browser/test_rules_copy.py holds the two to each other.

const MASK = (1n << 64n) - 1n;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export const SUITS = ["S", "H", "D", "C"];
const RANK_TEXT = [null, "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** A card's text: ``cardText(10, "H")`` is ``"10H"``. */
export function cardText(rank, suit) {
  return RANK_TEXT[rank] + suit;
}

/** A card text's rank, 1 … 13. */
export function rankOf(card) {
  const text = card.slice(0, -1);
  return text === "A" ? 1 : text === "J" ? 11 : text === "Q" ? 12 : text === "K" ? 13 : +text;
}

/** A card text's suit letter. */
export function suitOf(card) {
  return card[card.length - 1];
}

class SplitMix64 {
  constructor(seed) {
    this.state = BigInt(seed) & MASK;
  }

  next() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  }

  bounded(bound) {
    const b = BigInt(bound);
    const limit = (1n << 64n) - ((1n << 64n) % b);
    for (;;) {
      const value = this.next();
      if (value < limit) return Number(value % b);
    }
  }
}

/** A deal code's parts: ``{game: "SH", version: 1, variant: "C4", number}``, or null. */
export function parseCode(text) {
  const match = /^([A-Z]{2})(\d+)-([A-Z0-9]+)-([A-Z2-7]{7})$/.exec(String(text).trim().toUpperCase());
  if (!match) return null;
  let number = 0;
  for (const ch of match[4]) number = number * 32 + ALPHABET.indexOf(ch);
  return { game: match[1], version: +match[2], variant: match[3], number };
}

/** The shuffled cards ``c[0 …]`` a deal lays out (``decks`` × 52). */
export function shuffledCards(code, decks) {
  const salt = (BigInt(code.game.charCodeAt(0)) << 8n) | BigInt(code.game.charCodeAt(1));
  const rng = new SplitMix64((salt << 40n) | BigInt(code.number));
  const cards = [];
  for (let d = 0; d < decks; d++) {
    for (const suit of SUITS) for (let rank = 1; rank <= 13; rank++) cards.push(cardText(rank, suit));
  }
  for (let i = cards.length - 1; i > 0; i--) {
    const j = rng.bounded(i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}
