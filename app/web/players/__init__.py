"""The player: the session cookie, the settings, their statistics as read out (figures) and where a
finished game stands on its deal."""
