"""Alembic's environment for the match database (server/store.py): the migrations run on the
connection the store opens and hands over in `config.attributes["connection"]`, inside the
store's transaction (which holds PostgreSQL's lock against replicas migrating at once)."""

from alembic import context

context.configure(connection=context.config.attributes["connection"])
with context.begin_transaction():
    context.run_migrations()
