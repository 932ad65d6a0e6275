"""`python -m bot`: the command line (`bot.cli`); with no subcommand it starts the bot."""

from __future__ import annotations

from bot.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
