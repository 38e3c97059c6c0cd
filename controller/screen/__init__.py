"""The dealer's touch screen: a local web server fed by the table's pit stream and control socket.

It is one more consumer of the table, in its own process (``table-controller
screen``): it draws the table's picture (``table.view``) and sends the dealer's
touches as control commands. It names no game. See docs/dealer-screen.md.
"""
