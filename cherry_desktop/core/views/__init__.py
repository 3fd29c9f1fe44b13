"""Read models the windows show (no Qt): the session header."""
