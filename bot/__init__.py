"""Deckhand's running service: settings, storage, the table manager, translations, the client."""
