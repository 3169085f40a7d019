"""Looking back at a game: its replay step by step, the analysis's finding on the page, the move
list, and what of a finding is withheld."""
