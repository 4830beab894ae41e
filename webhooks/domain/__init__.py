"""The webhooks' rules without the framework: the event kinds, the retry schedule, which
addresses and URLs an endpoint may have, the secret's format."""
