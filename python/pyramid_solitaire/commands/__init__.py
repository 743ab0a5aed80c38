"""One module per subcommand of the command line; each has register(subparsers, rule_flags)."""
