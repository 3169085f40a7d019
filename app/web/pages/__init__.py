"""The pages a player reads: home, statistics (``/stats``) and its charts, the rules, Examples, FAQ
and winnability, the install manifest and service worker, and the static files."""
