"""The venue: every table of a club's evening, from the broker, and the league (`corbeille venue`)."""
