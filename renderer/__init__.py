"""Pillow pictures of a game: board, tile previews, game over, replay animation.

The renderer reads engine state and never changes it.
"""
