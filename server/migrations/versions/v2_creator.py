"""Schema version 2: each match's creator, for the quotas (server/quotas.py): `key:NAME`,
`peer:ADDRESS` or `local`; NULL for the matches made before it."""

import sqlalchemy as sa
from alembic import op

revision = "2"
down_revision = "1"


def upgrade() -> None:
    op.add_column("regent_matches", sa.Column("creator", sa.String(80)))
