"""Rated play and shift figures: what each wager is worth to the house, and what a player or a table did.

``edges``: each wager spot's house edge under a table's rules, the record a rating keeps;
``figures``: :func:`~controller.pit.ratings.figures.edges_of`, those edges from the game's own math.
"""
