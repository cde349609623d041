"""discord.py glue only: slash commands, buttons, selects, threads and messages.

Rules live in engine/, queries in storage/, decisions in service/; this package
turns Discord interactions into service calls and service answers into messages.
"""
