"""The local front ends: ``bot.py demo`` and ``bot.py play``, on the same service as Discord."""
