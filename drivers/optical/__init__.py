"""The optical shoe: a camera at the shoe's mouth reads each card's index (rank and suit) against templates
taught once per deck design (issue 35).

``designs`` and ``render`` find and draw Debian's SVG deck designs; ``distort`` and ``frames`` turn a drawn
card into a camera-like frame of its index corner (the test rig of the reader), ``blur`` holds the two
blurs of a shoe's camera; ``ink`` finds the index in a frame; ``taught`` is the taught design's file;
``teach`` makes it from one clean pass; ``read`` reads a frame. ``capture`` is what a camera gives (the
frame of the card that passed the shoe board's beam; a V4L2 camera), ``scripted`` the rendered frames of a
script of cards that stand in for it in the tests and the simulation. Needs the ``optical`` extra (numpy,
OpenCV).
"""
