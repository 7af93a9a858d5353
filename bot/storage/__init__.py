"""Storage: the database drivers (:mod:`bot.storage.db`), the tables and their moves
(:mod:`bot.storage.store`), the record of finished games and ratings (:mod:`bot.storage.records`,
:mod:`bot.storage.ratings`). Nothing here imports the table service or Discord."""
