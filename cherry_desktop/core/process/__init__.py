"""Child processes tied to the app's life (the tie launcher)."""
