"""Drawing: the board as values and its markup, the info bar and live region, the end box, the
notices, a game's screen, the page context, diagrams, the page templates and the hashed assets."""
