"""The kernel every layer shares, apart from the serial link: playing cards (:mod:`.cards`), amounts in
cents and their one written form (:mod:`.money`), the log that counts repeats (:mod:`.repeat_log`), and
JSON as the lower layers' edges read and write it (:mod:`.json`).

It imports nothing of the project, so a game that needs a card or a dollar figure imports no serial
link, no driver and no table.
"""
