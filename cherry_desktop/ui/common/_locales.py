"""The app's locales (each has an `i18n/<locale>.ts`); the settings dialog offers them."""

from __future__ import annotations

LOCALES = ("en_US", "zh_CN", "zh_TW")
