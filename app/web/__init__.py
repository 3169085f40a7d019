"""The web layer: routes per concern, rendering, sessions, security. The engine knows none of it."""
