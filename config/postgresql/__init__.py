"""Django's PostgreSQL backend with the breaker of config/database.py (ENGINE "config.postgresql")."""
