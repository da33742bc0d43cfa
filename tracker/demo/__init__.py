"""`tracker demo`: the bundled demo games, replayed from a loopback forum (see :mod:`tracker.demo.run`)."""

#: The other bundled demo games (`tracker demo --game ID`): each a folder of ``data/`` holding its
#: game.toml, nights.toml and pages/ (werewolf-12's generated from forum.toml by
#: scripts/make_werewolf12_demo.py). No ``--game``: the seed demo, ``data/`` itself.
DEMO_GAMES: tuple[str, ...] = ("werewolf-12",)
