"""How core comes to life: the service container (services start in dependency order and stop
in reverse) and deferred imports (what loads only after the first paint). Below every other
part of core, so each can declare a service without importing the app that composes them."""
