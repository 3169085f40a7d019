"""The tap and the game routes: a game action read (forms), decided, committed and answered
(actions → decide → commit → answers), the game page, Undo / Redo / Restart, hints, new deals,
and the worker's cache of recent games."""
