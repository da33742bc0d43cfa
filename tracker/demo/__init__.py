"""`tracker demo`: the bundled demo games, replayed from a loopback forum (see :mod:`tracker.demo.run`)."""

#: The other bundled demo games (`tracker demo --game ID`): each a folder of ``data/`` holding its
#: game.toml, nights.toml and pages/ — or forum.toml, which tracker.demo.forum_pages writes as pages
#: into the demo's folder when it starts (werewolf-12). No ``--game``: the seed demo, ``data/`` itself.
DEMO_GAMES: tuple[str, ...] = ("werewolf-12",)
