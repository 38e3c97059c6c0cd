"""The monitor's web app (aiohttp): its pages, their routes and the static files they load.

``floor.py`` (the app itself: the floor and table pages, the live stream, the guard and sign-in),
with the routes of the pit's actions (``actions.py``), rated play (``ratings.py``) and game
protection (``protection.py``; its list kept between asks, ``protection_list.py``), the sign-in
(``signin.py``), and ``static/``: the HTML, CSS and JavaScript served as they are.
"""
