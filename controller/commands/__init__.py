"""Every control command as a frozen, typed record, registered under its name, decoded once.

:mod:`.registry` holds the records by name (the request's ``cmd``), with who may
send each and its label for people, and decodes a request into its record;
:mod:`.table` holds the table's own commands (importing this package registers
them); a game's own commands are registered by the game or part that declares
them (:func:`controller.games.catalog.load_games` imports every installed game, for a
process that runs no table but reads the registry). :mod:`.request_ids` keeps the ids of
the commands already carried out, so that a retry is answered and not applied again.
"""

from controller.commands import table as table

