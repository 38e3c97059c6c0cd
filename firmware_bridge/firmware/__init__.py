"""The reference board firmware (MicroPython on a Raspberry Pi Pico), also run under CPython in the tests.

On the board these modules sit flat in the file system's root and import each other by plain name;
docs/boards.md says how to flash them.
"""
