"""posts: threads, posts, post versions, crawls, raw pages (the first tables of the posts branch)

Revision ID: posts_0001
Revises: 
Create Date: 2026-11-29 17:00:49.344749
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = 'posts_0001'
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = ('posts',)
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('crawl',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('started_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('finished_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('threads', sa.Text(), nullable=False),
    sa.Column('requests', sa.Integer(), nullable=False),
    sa.Column('pages', sa.Integer(), nullable=False),
    sa.Column('posts_new', sa.Integer(), nullable=False),
    sa.Column('posts_changed', sa.Integer(), nullable=False),
    sa.Column('errors', sa.Text(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_crawl'))
    )
    op.create_table('thread',
    sa.Column('tid', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('fid', sa.Integer(), nullable=True),
    sa.Column('subject', sa.Text(), nullable=False),
    sa.Column('replies', sa.Integer(), nullable=True),
    sa.Column('maxposition', sa.Integer(), nullable=True),
    sa.Column('pages', sa.Integer(), nullable=True),
    sa.Column('first_seen', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('listed_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('tid', name=op.f('pk_thread'))
    )
    op.create_table('post',
    sa.Column('pid', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('tid', sa.Integer(), nullable=False),
    sa.Column('floor', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=True),
    sa.Column('author', sa.String(length=255), nullable=False),
    sa.Column('uid', sa.Integer(), nullable=True),
    sa.Column('posted_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('html', sa.Text(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('edited_by', sa.String(length=255), nullable=True),
    sa.Column('edited_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('blocked', sa.Boolean(), nullable=False),
    sa.Column('from_mobile', sa.Boolean(), nullable=False),
    sa.Column('quotes', sa.Text(), nullable=False),
    sa.Column('colors', sa.Text(), nullable=False),
    sa.Column('sizes', sa.Text(), nullable=False),
    sa.Column('fonts', sa.Text(), nullable=False),
    sa.Column('images', sa.Text(), nullable=False),
    sa.Column('smilies', sa.Text(), nullable=False),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('content_key', sa.String(length=64), nullable=False),
    sa.Column('html_hash', sa.String(length=64), nullable=False),
    sa.Column('has_desktop', sa.Boolean(), nullable=False),
    sa.Column('deleted', sa.Boolean(), nullable=False),
    sa.Column('deleted_seen_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('first_seen', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('last_seen', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('versions', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['tid'], ['thread.tid'], name=op.f('fk_post_tid_thread')),
    sa.PrimaryKeyConstraint('pid', name=op.f('pk_post'))
    )
    op.create_index('ix_post_tid_author_posted_at', 'post', ['tid', 'author', 'posted_at'], unique=False)

    op.create_table('raw_page',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('url', sa.Text(), nullable=False),
    sa.Column('status', sa.Integer(), nullable=False),
    sa.Column('content_type', sa.String(length=255), nullable=True),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('body_gz', sa.LargeBinary(), nullable=False),
    sa.Column('fetched_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('crawl_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['crawl_id'], ['crawl.id'], name=op.f('fk_raw_page_crawl_id_crawl')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_raw_page'))
    )
    op.create_index('ix_raw_page_url_fetched_at', 'raw_page', ['url', 'fetched_at'], unique=False)

    op.create_table('post_version',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('pid', sa.Integer(), nullable=False),
    sa.Column('seen_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('content_key', sa.String(length=64), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('html', sa.Text(), nullable=False),
    sa.Column('quotes', sa.Text(), nullable=False),
    sa.Column('colors', sa.Text(), nullable=False),
    sa.Column('sizes', sa.Text(), nullable=False),
    sa.Column('edited_by', sa.String(length=255), nullable=True),
    sa.Column('edited_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('blocked', sa.Boolean(), nullable=False),
    sa.Column('crawl_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['crawl_id'], ['crawl.id'], name=op.f('fk_post_version_crawl_id_crawl')),
    sa.ForeignKeyConstraint(['pid'], ['post.pid'], name=op.f('fk_post_version_pid_post')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_post_version'))
    )
    op.create_index('ix_post_version_pid_id', 'post_version', ['pid', 'id'], unique=False)



def downgrade() -> None:
    op.drop_index('ix_post_version_pid_id', table_name='post_version')

    op.drop_table('post_version')
    op.drop_index('ix_raw_page_url_fetched_at', table_name='raw_page')

    op.drop_table('raw_page')
    op.drop_index('ix_post_tid_author_posted_at', table_name='post')

    op.drop_table('post')
    op.drop_table('thread')
    op.drop_table('crawl')
