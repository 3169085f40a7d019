"""The rules engine: cards, deal codes, the shuffle, the shared vocabulary of a game, and one
package per game; no web, service or store code.

Importing it loads the table of games first (:mod:`app.engine.games`), which tells the deal
codes and the shuffle which games there are: a code is never read before the table is.
"""

from app.engine import games as games
