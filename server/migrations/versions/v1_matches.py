"""Schema version 1: matches, their seat tokens and their move logs, as the first release
made them (its DDL frozen here: later versions change the tables only by migrations)."""

import sqlalchemy as sa
from alembic import op

revision = "1"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "regent_matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("seed", sa.String(20), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_active", sa.Float, nullable=False),
        sa.Column("num_moves", sa.Integer, nullable=False),
        sa.Column("outcome", sa.String(16)),
        sa.Column("current_seat", sa.Integer),
        sa.Column("bot_turn", sa.Boolean, nullable=False),
        sa.Column("lease_owner", sa.String(64)),
        sa.Column("lease_expires", sa.Float),
    )
    op.create_index("regent_matches_listing", "regent_matches", ["public", "created_at", "id"])
    op.create_index("regent_matches_live", "regent_matches", ["outcome", "bot_turn"])
    op.create_table(
        "regent_seat_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("regent_matches.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
    )
    op.create_index("ix_regent_seat_tokens_match_id", "regent_seat_tokens", ["match_id"])
    op.create_table(
        "regent_moves",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("regent_matches.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("action", sa.Integer),
        sa.Column("made_at", sa.Float, nullable=False),
    )
