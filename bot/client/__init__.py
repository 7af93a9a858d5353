"""The Discord client: the bot (:mod:`bot.client.deckhand`), its command tree
(:mod:`bot.client.tree`) and the translator of its commands (:mod:`bot.client.translator`)."""
