"""The optical shoe: a camera at the shoe's mouth reads each card's index (rank and suit) against templates
taught once per deck design (issue 35).

``designs`` and ``render`` find and draw Debian's SVG deck designs; ``distort`` and ``frames`` turn a drawn
card into a camera-like frame of its index corner (the test rig of the reader), ``blur`` holds the two
blurs of a shoe's camera; ``ink`` finds the index in a frame; ``taught`` is the taught design's file;
``teach`` makes it from one clean pass; ``read`` reads a frame. Needs the ``optical`` extra (numpy, OpenCV).
"""
